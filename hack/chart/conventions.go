package main

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// The values platform teams set on every operator's chart, none of which config/ has: the
// manager's pod, its ServiceAccount, the objects that can be turned off, the CRDs, the Grafana
// dashboard and the helm test Pod. Their defaults change nothing config/ renders.
const moreValues = `
# The manager's pod.
imagePullSecrets: []
podAnnotations: {}
# Added to the pod's labels; the chart's own (its selector's) cannot be overridden.
podLabels: {}
nodeSelector: {}
tolerations: []
# Empty: config/'s preference for replicas on different nodes. Set, it replaces that.
affinity: {}
topologySpreadConstraints: []
priorityClassName: ""
# More flags of the manager (README, "Flags"), e.g. [--zap-log-level=debug].
extraArgs: []
# More environment variables of the manager, as in a container's env.
extraEnv: []
# More volumes of the pod and mounts of the manager, as in a pod's volumes and a container's
# volumeMounts.
extraVolumes: []
extraVolumeMounts: []

serviceAccount:
  # false: the manager runs as an existing ServiceAccount, name (default: "default"); the chart
  # still binds its roles to it.
  create: true
  # Empty: <release>-controller-manager.
  name: ""
  # E.g. eks.amazonaws.com/role-arn, iam.gke.io/gcp-service-account.
  annotations: {}

# The PodDisruptionBudget of the manager (one replica down at a time).
podDisruptionBudget:
  enabled: true

# The NetworkPolicies: the manager's API from anywhere, its metrics from namespaces labelled
# metrics=enabled, the trial Redis and PostgreSQL from the manager only. Off for a cluster whose
# policies are managed elsewhere.
networkPolicy:
  enabled: true

crds:
  # Install and upgrade the CRDs with this release. One release per cluster owns them: install
  # further releases (other namespaces) with crds.enabled=false (README, "CRDs and upgrades").
  enabled: true
  # helm uninstall leaves the CRDs, and so every custom resource (intents, keys, accounts), in the
  # cluster. false: they are deleted with the release, and every custom resource with them.
  keep: true

# A ConfigMap holding the Grafana dashboard (config/grafana), for Grafana's dashboard sidecar
# (kube-prometheus-stack: grafana.sidecar.dashboards.enabled, which looks for these labels).
grafanaDashboard:
  enabled: false
  # Empty: the release's namespace. The sidecar may watch another one (e.g. monitoring).
  namespace: ""
  labels:
    grafana_dashboard: "1"
  # E.g. grafana_folder: Transfer Intent Service (the sidecar's folderAnnotation).
  annotations: {}

# helm test: a Pod that asks the API's /health through the Service, and fails unless it answers 200.
test:
  image: busybox:1.37
`

// extraTemplates are the chart's templates that no object of config/ becomes.
var extraTemplates = map[string]string{
	"templates/tests/test-health-pod.yaml": header + `apiVersion: v1
kind: Pod
metadata:
  name: {{ include "tis.prefix" . }}test-health
  namespace: {{ .Release.Namespace }}
  labels:
    app.kubernetes.io/name: transfer-intent-service
    app.kubernetes.io/instance: {{ .Release.Name }}
    app.kubernetes.io/managed-by: {{ .Release.Service }}
    app.kubernetes.io/component: test
    helm.sh/chart: {{ include "tis.chart" . }}
  annotations:
    helm.sh/hook: test
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  restartPolicy: Never
  automountServiceAccountToken: false
  {{- with .Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  securityContext:
    runAsNonRoot: true
    runAsUser: 65534
    runAsGroup: 65534
    seccompProfile:
      type: RuntimeDefault
  containers:
    - name: health
      image: {{ .Values.test.image | quote }}
      # busybox's wget exits non-zero on a status of 400 or more (503: caches not synced).
      command:
        - wget
        - -q
        - -O
        - "-"
        - -T
        - "10"
        - {{ print "http://" (include "tis.prefix" .) "api." .Release.Namespace ".svc:8080/health" | quote }}
      resources:
        limits:
          memory: 16Mi
        requests:
          cpu: 10m
          memory: 16Mi
      securityContext:
        allowPrivilegeEscalation: false
        capabilities:
          drop:
            - ALL
        readOnlyRootFilesystem: true
`,
	"templates/grafana-dashboard-configmap.yaml": header + `{{- if .Values.grafanaDashboard.enabled }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "tis.clusterPrefix" . }}grafana-dashboard
  namespace: {{ .Values.grafanaDashboard.namespace | default .Release.Namespace }}
  labels:
    app.kubernetes.io/name: transfer-intent-service
    app.kubernetes.io/instance: {{ .Release.Name }}
    app.kubernetes.io/managed-by: {{ .Release.Service }}
    helm.sh/chart: {{ include "tis.chart" . }}
    {{- with omit .Values.grafanaDashboard.labels "app.kubernetes.io/name" "app.kubernetes.io/instance" "app.kubernetes.io/managed-by" "helm.sh/chart" }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with .Values.grafanaDashboard.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
data:
  transfer-intent-service.json: |-
    {{- .Files.Get "dashboards/transfer-intent-service.json" | nindent 4 }}
{{- end }}
`,
}

// moreHelpers are the named templates of the values above.
const moreHelpers = `
{{/* The prefix of cluster-scoped names: releases of one name in two namespaces must not share them. */}}
{{- define "tis.clusterPrefix" -}}
{{ .Release.Namespace }}-{{ .Release.Name }}-
{{- end }}

{{- define "tis.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ .Values.serviceAccount.name | default (print (include "tis.prefix" .) "controller-manager") }}
{{- else -}}
{{ .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* The trial PostgreSQL's password: the value, else the one in the installed Secret (so that an
upgrade keeps the database's password), else a new random one. */}}
{{- define "tis.postgresPassword" -}}
{{- $secret := lookup "v1" "Secret" .Release.Namespace (print (include "tis.prefix" .) "postgres") -}}
{{- if .Values.postgresql.trial.password -}}
{{ .Values.postgresql.trial.password }}
{{- else if and $secret $secret.data $secret.data.password -}}
{{ $secret.data.password | b64dec }}
{{- else -}}
{{ randAlphaNum 32 }}
{{- end }}
{{- end }}
`

// writeDashboard copies config/grafana's dashboard into the chart, where the ConfigMap's
// template reads it with .Files.Get (not templated, so Grafana's own {{...}} stay as they are).
func writeDashboard(out, configDir string) error {
	b, err := os.ReadFile(filepath.Join(configDir, "grafana", "transfer-intent-service.json"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "dashboards", "transfer-intent-service.json"), b, 0o644)
}

// JSON Schema builders for values.schema.json.
type schema = map[string]any

// object is a mapping whose keys are exactly props: a misspelt value fails helm install.
func object(props schema) schema {
	return schema{"type": "object", "additionalProperties": false, "properties": props}
}

func typed(t string) schema { return schema{"type": t} }

var (
	tString  = typed("string")
	tBool    = typed("boolean")
	anyMap   = typed("object") // a Kubernetes type (affinity, resources) or free labels
	anyList  = schema{"type": "array", "items": typed("object")}
	strMap   = schema{"type": "object", "additionalProperties": typed("string")}
	trialExt = func(trial schema) schema {
		return object(schema{"trial": object(trial), "external": object(schema{"secretName": tString, "secretKey": tString})})
	}
	withLabels = object(schema{"enabled": tBool, "additionalLabels": strMap})
)

// valuesSchema is values.schema.json: every value of values.yaml, its type, and no other key. A
// value added to values.yaml but not here fails helm lint --strict in make test-chart.
func valuesSchema() ([]byte, error) {
	s := object(schema{
		"replicas": schema{"type": "integer", "minimum": 0},
		"image": object(schema{"repository": tString, "tag": tString, "digest": tString,
			"pullPolicy": schema{"enum": []string{"Always", "IfNotPresent", "Never"}}}),
		"resources":      anyMap,
		"baseURL":        tString,
		"problemBaseURL": tString,
		"redis":          trialExt(schema{"enabled": tBool, "image": tString}),
		"postgresql":     trialExt(schema{"enabled": tBool, "image": tString, "password": tString, "storage": tString}),
		"attester": object(schema{"secretName": tString, "secretKey": tString,
			"trustedHosts": schema{"type": "object", "additionalProperties": schema{"type": "array", "items": tString}}}),
		"tracing": object(schema{"otlpEndpoint": tString, "samplingRatio": schema{"type": "number", "minimum": 0, "maximum": 1},
			"headersSecret": object(schema{"name": tString, "key": tString})}),
		"metrics": object(schema{"enabled": tBool, "certSecret": tString, "serviceMonitor": withLabels, "prometheusRule": withLabels}),

		"imagePullSecrets":          anyList,
		"podAnnotations":            strMap,
		"podLabels":                 strMap,
		"nodeSelector":              strMap,
		"tolerations":               anyList,
		"affinity":                  anyMap,
		"topologySpreadConstraints": anyList,
		"priorityClassName":         tString,
		"extraArgs":                 schema{"type": "array", "items": tString},
		"extraEnv":                  anyList,
		"extraVolumes":              anyList,
		"extraVolumeMounts":         anyList,
		"serviceAccount":            object(schema{"create": tBool, "name": tString, "annotations": strMap}),
		"podDisruptionBudget":       object(schema{"enabled": tBool}),
		"networkPolicy":             object(schema{"enabled": tBool}),
		"crds":                      object(schema{"enabled": tBool, "keep": tBool}),
		"grafanaDashboard": object(schema{"enabled": tBool, "namespace": tString, "labels": strMap,
			"annotations": strMap}),
		"test": object(schema{"image": tString}),
	})
	s["$schema"] = "https://json-schema.org/draft-07/schema#"
	b, err := json.MarshalIndent(s, "", "  ")
	return append(b, '\n'), err
}
