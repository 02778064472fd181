{{- define "gvDetails" -}}
{{- $gv := . -}}
## {{ $gv.GroupVersionString }}

{{ $gv.Doc | trim }}

{{- /* For every type, the kinds whose objects contain it: the roots reached by following
"Appears in" (References) upwards. A type of exactly one kind is documented in that kind's
section, any other in "Common types". */ -}}
{{- $kindsOf := dict -}}
{{- range $gv.SortedTypes -}}
{{- $acc := dict -}}
{{- template "collectKinds" (dict "type" . "acc" $acc "seen" (dict)) -}}
{{- $_ := set $kindsOf .Name ($acc | keys | sortAlpha) -}}
{{- end }}

Kinds:
{{- range $gv.SortedKinds }}
- {{ $gv.TypeForKind . | markdownRenderTypeLink }}
{{- end }}
- [Common types](#common-types)
{{- range $kind := $gv.SortedKinds }}

{{ template "type" (dict "type" ($gv.TypeForKind $kind) "level" "###") }}
{{- /* The kind's spec and status first, then the rest of its types by name. */ -}}
{{- $first := list (print $kind "Spec") (print $kind "Status") }}
{{- $rest := list }}
{{- range $gv.SortedTypes }}{{ if not (has .Name $first) }}{{ $rest = append $rest .Name }}{{ end }}{{ end }}
{{- range $name := concat $first $rest }}
{{- with $gv.TypeForKind $name }}
{{- if and (not .GVK) (eq (get $kindsOf .Name | join ",") $kind) }}

{{ template "type" (dict "type" . "level" "####") }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

### Common types

Types used by more than one kind.
{{- range $gv.SortedTypes }}
{{- if and (not .GVK) (ne (get $kindsOf .Name | len) 1) (markdownShouldRenderType .) }}

{{ template "type" (dict "type" . "level" "####") }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "collectKinds" -}}
{{- $t := .type -}}
{{- if not (hasKey .seen $t.UID) -}}
{{- $_ := set .seen $t.UID true -}}
{{- if $t.GVK }}{{ $_ := set $.acc $t.GVK.Kind true }}{{ end -}}
{{- range $t.References }}{{ template "collectKinds" (dict "type" . "acc" $.acc "seen" $.seen) }}{{ end -}}
{{- end -}}
{{- end -}}
