// Package fieldrule holds the Go mirrors of the OpenAPI and CEL rules that fields of several kinds
// share (a string's length and pattern, an environment, a node's URL, a Secret or object
// reference), so that the controller and the /webhooks page check a spec by the same rules.
package fieldrule

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
)

// SecretKeyPattern is the CRDs' pattern of a SecretKeyReference's key, verbatim.
const SecretKeyPattern = `^[-._a-zA-Z0-9]+$`

var secretKeyPattern = regexp.MustCompile(SecretKeyPattern)

// String is the OpenAPI schema of one string field.
type String struct {
	Required bool
	MinLen   int
	MaxLen   int // 0: unbounded
	Pattern  *regexp.Regexp
}

// Validate checks value against the schema.
func (r String) Validate(path *field.Path, value string) field.ErrorList {
	if value == "" {
		if r.Required {
			return field.ErrorList{field.Required(path, "")}
		}
		return nil
	}
	var errs field.ErrorList
	n := utf8.RuneCountInString(value)
	if n < r.MinLen {
		errs = append(errs, field.Invalid(path, value, fmt.Sprintf("must be at least %d characters long", r.MinLen)))
	}
	if r.MaxLen > 0 && n > r.MaxLen {
		errs = append(errs, field.TooLong(path, "", r.MaxLen))
	}
	if r.Pattern != nil && !r.Pattern.MatchString(value) {
		errs = append(errs, field.Invalid(path, value, fmt.Sprintf("must match %s", r.Pattern)))
	}
	return errs
}

// Environment checks an environment: test or live.
func Environment(path *field.Path, env v1alpha1.Environment) field.ErrorList {
	switch env {
	case v1alpha1.EnvironmentTest, v1alpha1.EnvironmentLive:
		return nil
	case "":
		return field.ErrorList{field.Required(path, "")}
	default:
		return field.ErrorList{field.NotSupported(path, env, []v1alpha1.Environment{v1alpha1.EnvironmentTest, v1alpha1.EnvironmentLive})}
	}
}

// RPCURL checks a node's URL as the CRD's rule does: https, or http to a loopback host
// only, since anyone on the path of plain http can answer for the node (and forge a fill).
func RPCURL(path *field.Path, value string) field.ErrorList {
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The value may carry a credential: do not repeat it.
		return field.ErrorList{field.Invalid(path, "<redacted>", "url must be an http or https URL")}
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return field.ErrorList{field.Invalid(path, "<redacted>", "url must be https: plain http is allowed for a loopback node only, since anyone on the path of plain http can answer for the node")}
	}
	return nil
}

// IsLoopbackHost reports whether host is localhost or a loopback IP literal.
func IsLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// SecretKeyReference checks an optional reference to a key of a Secret.
func SecretKeyReference(path *field.Path, ref *v1alpha1.SecretKeyReference) field.ErrorList {
	if ref == nil {
		return nil
	}
	errs := String{Required: true, MinLen: 1, MaxLen: 253}.Validate(path.Child("name"), ref.Name)
	return append(errs, String{MaxLen: 253, Pattern: secretKeyPattern}.Validate(path.Child("key"), ref.Key)...)
}

// LocalObjectReference checks a reference to an object of the namespace.
func LocalObjectReference(path *field.Path, ref v1alpha1.LocalObjectReference) field.ErrorList {
	return String{Required: true, MinLen: 1, MaxLen: 253}.Validate(path.Child("name"), ref.Name)
}
