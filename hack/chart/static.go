package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/transferintent/transfer-intent-service/internal/tracing"
)

// values are the defaults of values.yaml, read from the render of config/default.
type values struct {
	deployment              bool
	replicas                string
	version                 string // the release: the chart's version and appVersion
	imageRepository         string
	imageDigest             string
	pullPolicy              string
	resources               string
	baseURL, problemBaseURL string
	redisImage              string
	postgresImage           string
	postgresStorage         string
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(pad + l + "\n")
	}
	return b.String()
}

func writeStatic(out, configDir string, v *values) error {
	chart := header + `apiVersion: v2
name: transfer-intent-service
description: The Transfer Intent Service, an operator serving the /v2 API of transfer intents.
type: application
# Both are the release (the VERSION file, or make VERSION=...); appVersion is the default image tag.
version: ` + v.version + `
appVersion: ` + fmt.Sprintf("%q", v.version) + `
# The CRDs' selectable field status.phase (GA in 1.32) is how the service lists finished intents.
kubeVersion: ">=1.32.0-0"
`

	vals := header + `# Every default below is read from config/ (config/default and what it includes), so that
# helm install with these values and make deploy create the same objects, named after the release
# (helm install transfer-intent ... gives the names of config/default) in the release's namespace.
# The ServiceMonitor and PrometheusRule are off in both (they need the Prometheus Operator's CRDs).
# Differences: the attester key can be mounted (config/ has no place for it yet); the trial
# PostgreSQL's password is generated; cluster-scoped objects are named after the release's
# namespace too ("<namespace>-<release>-manager-role"); and the settings from imagePullSecrets on,
# which config/ leaves to overlays.

# Replicas of the manager. Every replica serves the HTTP API; the reconcilers run on the leader.
replicas: ` + v.replicas + `

image:
  repository: ` + v.imageRepository + `
  # Empty: the chart's appVersion, the release this chart was made with.
  tag: ""
  # Overrides tag when set, e.g. sha256:... (a chart pushed by make release-local pins the image
  # it pushed with it).
  digest: ` + fmt.Sprintf("%q", v.imageDigest) + `
  pullPolicy: ` + v.pullPolicy + `

# Requests and limits of the manager (measured figures: README, "Deploy to a cluster"). Raise the
# memory with the intents kept: about 100 MiB plus 5 KB per intent.
resources:
` + indent(v.resources, 2) + `
# --base-url: the URL clients use (problem instances, Location and Link headers, the OpenAPI
# servers entry). Empty: the in-cluster Service, as config/default (` + v.baseURL + `
# for release transfer-intent in namespace transfer-intent-system).
baseURL: ""
# --problem-base-url: the prefix of problem type URIs.
problemBaseURL: ` + v.problemBaseURL + `

# Redis for the rate limits shared by the replicas (REDIS_URL). Either the trial Redis of
# config/components/redis (one pod, no persistence), or a URL (redis://:password@host:6379/0,
# rediss:// for TLS) from an existing Secret: trial.enabled=false, external.secretName=... .
# Neither: each replica counts its own limits.
redis:
  trial:
    enabled: true
    image: ` + v.redisImage + `
  external:
    secretName: ""
    secretKey: url

# PostgreSQL, the archive of finished intents (ARCHIVE_URL). Either the trial PostgreSQL of
# config/components/postgres (one pod, a PersistentVolumeClaim, no backups), or a URL
# (postgres://user:password@host:5432/db?sslmode=verify-full) from an existing Secret:
# trial.enabled=false, external.secretName=... . Neither: finished intents stay in etcd.
postgresql:
  trial:
    enabled: true
    image: ` + v.postgresImage + `
    # Empty: a random password, generated at install and kept from the Secret on upgrades.
    password: ""
    storage: ` + v.postgresStorage + `
  external:
    secretName: ""
    secretKey: url

# The attester key (--attester-key-file): an existing Secret holding the attester's hex private
# key, mounted read-only. It signs final bridge fills; without it every bridge is valid: false.
attester:
  secretName: ""
  secretKey: attester.key
  # --attestation-trusted-hosts: per destination chain, the RPC hosts (host or host:port) whose
  # word may release a bridge escrow. For a chain listed here a fill is attested only when two of
  # its endpoints on the list agree, so that write access to Chains (or their RPC Secrets) is not
  # the attester's power (docs/settlement.md, "Trusted hosts"). For example:
  #   eip155:8453: [mainnet.base.org, base-rpc.publicnode.com]
  trustedHosts: {}

# OpenTelemetry tracing (docs/decisions.md, "Tracing"): spans of API requests, intent store
# writes, node calls, attestations and webhook deliveries, exported over OTLP/gRPC. Off while
# otlpEndpoint is empty. The exporter's other standard variables (OTEL_EXPORTER_OTLP_CERTIFICATE,
# _COMPRESSION...) are not values: add them to the Deployment if the collector needs them.
tracing:
  # --otlp-endpoint: the collector, http://host:4317 (plaintext), https://host:4317 or host:4317
  # (TLS), e.g. http://otel-collector.monitoring:4317.
  otlpEndpoint: ""
  # --trace-sampling-ratio: the share of API requests traced, 0 to 1 (webhook delivery attempts,
  # which no request carries, too); the spans a request causes follow its decision.
  samplingRatio: ` + strconv.FormatFloat(tracing.DefaultSamplingRatio, 'g', -1, 64) + `
  # OTEL_EXPORTER_OTLP_HEADERS from an existing Secret, for a collector that wants a token:
  # key=value pairs, comma-separated, values URL-encoded, e.g. authorization=Bearer%20<token>.
  headersSecret:
    name: ""
    key: headers

metrics:
  # The HTTPS metrics endpoint on 8443 (--metrics-bind-address), its Service and NetworkPolicy.
  enabled: true
  # An existing Secret whose certificate the endpoint serves, reloaded when it changes
  # (--metrics-cert-path): type kubernetes.io/tls with ca.crt, as cert-manager writes it, for the
  # DNS name <release>-controller-manager-metrics-service.<namespace>.svc. Empty: a self-signed
  # certificate made at start, which no scraper can verify.
  certSecret: ""
  serviceMonitor:
    # The Prometheus Operator's ServiceMonitor; needs its CRDs in the cluster, and certSecret: it
    # verifies the certificate against the Secret's ca.crt.
    enabled: false
    # Extra labels of the ServiceMonitor, for a Prometheus that selects monitors by label
    # (kube-prometheus-stack: release: <its release name>).
    additionalLabels: {}
  prometheusRule:
    # The alert rules of config/prometheus/alerts.yaml (runbooks in docs/runbooks.md), as a
    # PrometheusRule; needs the Prometheus Operator's CRDs in the cluster.
    enabled: false
    # Extra labels of the PrometheusRule, for a Prometheus that selects rules by label
    # (kube-prometheus-stack: release: <its release name>).
    additionalLabels: {}
` + moreValues

	helpers := `{{/* Generated by hack/chart from config/ (make chart); do not edit. */}}

{{/* The prefix of every object's name: the release's name and a dash, as config/default's namePrefix. */}}
{{- define "tis.prefix" -}}
{{ .Release.Name }}-
{{- end }}

{{- define "tis.chart" -}}
{{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "tis.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}
{{- end }}

{{- define "tis.baseURL" -}}
{{ .Values.baseURL | default (print "http://" (include "tis.prefix" .) "api." .Release.Namespace ".svc:8080") }}
{{- end }}

{{/* Values that contradict each other; included by the manager's Deployment. */}}
{{- define "tis.validate" -}}
{{- if and .Values.redis.trial.enabled .Values.redis.external.secretName }}
{{- fail "redis: set either trial.enabled or external.secretName, not both" }}
{{- end }}
{{- if and .Values.postgresql.trial.enabled .Values.postgresql.external.secretName }}
{{- fail "postgresql: set either trial.enabled or external.secretName, not both" }}
{{- end }}
{{- if and .Values.metrics.enabled .Values.metrics.serviceMonitor.enabled (not .Values.metrics.certSecret) }}
{{- fail "metrics.serviceMonitor.enabled needs metrics.certSecret: the ServiceMonitor verifies the metrics certificate against the Secret's ca.crt" }}
{{- end }}
{{- if or (lt (float64 .Values.tracing.samplingRatio) 0.0) (gt (float64 .Values.tracing.samplingRatio) 1.0) }}
{{- fail "tracing.samplingRatio must be between 0 and 1" }}
{{- end }}
{{- end }}
` + moreHelpers
	notes := `The Transfer Intent Service runs in namespace {{ .Release.Namespace }}; its API is the Service
{{ include "tis.prefix" . }}api on port 8080 ({{ include "tis.baseURL" . }}).
{{- if .Values.redis.trial.enabled }}
Redis is the trial one (config/components/redis): point redis.external at a managed Redis for production.
{{- end }}
{{- if .Values.postgresql.trial.enabled }}
PostgreSQL is the trial one (config/components/postgres): point postgresql.external at a managed one for production.
{{- end }}
{{- if .Values.crds.enabled }}
This release installs and upgrades the CRDs{{ if .Values.crds.keep }}; helm uninstall keeps them, and every custom resource{{ else }}; helm uninstall DELETES them, and every custom resource{{ end }}.
{{- else }}
This release does not manage the CRDs (crds.enabled=false): the release that does upgrades them.
{{- end }}
`
	files := map[string]string{
		"Chart.yaml":             chart,
		"values.yaml":            vals,
		"templates/_helpers.tpl": helpers,
		"templates/NOTES.txt":    notes,
		".helmignore":            header + "*.orig\n*~\n",
	}
	schema, err := valuesSchema()
	if err != nil {
		return err
	}
	files["values.schema.json"] = string(schema)
	for name, text := range extraTemplates {
		files[name] = text
	}
	if err := writeDashboard(out, configDir); err != nil {
		return err
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(out, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
