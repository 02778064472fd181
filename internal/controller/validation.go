package controller

// The Validate* functions mirror, in Go, the OpenAPI and CEL rules of the CRDs (kept in step with
// the markers in api/v1alpha1), for objects that reached the API server before a rule existed or
// through a path that skipped it, and add what CEL cannot check (EIP-55 checksums, uint256 bounds).
// A reconciler marks an object that fails them Ready=False InvalidSpec and does not retry it.

import (
	"fmt"
	"math/big"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/registry"
)

// Patterns of the CRDs, verbatim; TestCRDPatternsMatchGo holds each to its marker. The identifier
// syntax comes from internal/caip, the one home of the CAIP rules.
var (
	caip2Pattern         = regexp.MustCompile(caip.ChainIDPattern)
	eip155ChainPattern   = regexp.MustCompile(caip.EIP155ChainIDPattern)
	caip10Pattern        = regexp.MustCompile(caip.AccountIDPattern)
	eip155AddressPattern = regexp.MustCompile(caip.EIP155AccountIDPattern)
	hexAddressPattern    = regexp.MustCompile(caip.HexAddressPattern)
	symbolPattern        = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)
	decimalIntPattern    = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	decimalPattern       = regexp.MustCompile(`^(0|[1-9][0-9]*)(\.[0-9]+)?$`)
	secretKeyPattern     = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)
	emailPattern         = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	keyHashPattern       = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	displayPrefixPattern = regexp.MustCompile(`^sk_(test|live)_[0-9A-Za-z]{1,8}$`)
	intentIDPattern      = regexp.MustCompile(`^int_transfer_[0-9A-HJKMNP-TV-Z]{26}$`)
	orderIDPattern       = regexp.MustCompile(`^0x[0-9a-f]{64}$`)
)

// maxUint256 bounds every on-chain integer.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// stringRule is the OpenAPI schema of one string field.
type stringRule struct {
	required bool
	minLen   int
	maxLen   int // 0: unbounded
	pattern  *regexp.Regexp
}

func (r stringRule) validate(path *field.Path, value string) field.ErrorList {
	if value == "" {
		if r.required {
			return field.ErrorList{field.Required(path, "")}
		}
		return nil
	}
	var errs field.ErrorList
	n := utf8.RuneCountInString(value)
	if n < r.minLen {
		errs = append(errs, field.Invalid(path, value, fmt.Sprintf("must be at least %d characters long", r.minLen)))
	}
	if r.maxLen > 0 && n > r.maxLen {
		errs = append(errs, field.TooLong(path, "", r.maxLen))
	}
	if r.pattern != nil && !r.pattern.MatchString(value) {
		errs = append(errs, field.Invalid(path, value, fmt.Sprintf("must match %s", r.pattern)))
	}
	return errs
}

func validateRange[T int32 | int64](path *field.Path, value, minimum, maximum T) field.ErrorList {
	if value < minimum || value > maximum {
		return field.ErrorList{field.Invalid(path, value, fmt.Sprintf("must be between %d and %d", minimum, maximum))}
	}
	return nil
}

func validateEnvironment(path *field.Path, env v1alpha1.Environment) field.ErrorList {
	switch env {
	case v1alpha1.EnvironmentTest, v1alpha1.EnvironmentLive:
		return nil
	case "":
		return field.ErrorList{field.Required(path, "")}
	default:
		return field.ErrorList{field.NotSupported(path, env, []v1alpha1.Environment{v1alpha1.EnvironmentTest, v1alpha1.EnvironmentLive})}
	}
}

// validateChainID checks a CAIP-2 chain id, and the eip155 reference form.
func validateChainID(path *field.Path, chainID string) field.ErrorList {
	errs := stringRule{required: true, maxLen: 41, pattern: caip2Pattern}.validate(path, chainID)
	if len(errs) == 0 && strings.HasPrefix(chainID, caip.NamespaceEIP155+":") && !eip155ChainPattern.MatchString(chainID) {
		errs = append(errs, field.Invalid(path, chainID, "an eip155 chainId must be eip155:<decimal chain id without leading zeros>"))
	}
	return errs
}

// validateEIP55 checks the checksum of a mixed-case 0x address. All-lowercase and all-uppercase
// addresses carry no checksum and pass. A failed checksum usually means a mistyped address, so
// the message does not offer the checksummed form of what was typed.
func validateEIP55(path *field.Path, value, address string) field.ErrorList {
	digits := address[2:]
	if digits == strings.ToLower(digits) || digits == strings.ToUpper(digits) {
		return nil
	}
	if common.HexToAddress(address).Hex() != address {
		return field.ErrorList{field.Invalid(path, value,
			"mixed-case address fails its EIP-55 checksum (mistyped?); write it checksummed or all lowercase")}
	}
	return nil
}

// validatePriceFeed mirrors the CRD rules of a priceFeed and checks its address's EIP-55 checksum.
func validatePriceFeed(path *field.Path, feed *v1alpha1.PriceFeed) field.ErrorList {
	if feed == nil {
		return nil
	}
	errs := stringRule{required: true, pattern: hexAddressPattern}.validate(path.Child("address"), feed.Address)
	if len(errs) == 0 {
		errs = append(errs, validateEIP55(path.Child("address"), feed.Address, feed.Address)...)
	}
	errs = append(errs, validateRange(path.Child("decimals"), feed.Decimals, 0, 36)...)
	errs = append(errs, validateRange(path.Child("maxAgeSeconds"), feed.MaxAgeSeconds, 1, 604800)...)
	return errs
}

// priceFeedRow is the registry's form of a valid priceFeed; nil for none.
func priceFeedRow(feed *v1alpha1.PriceFeed) *registry.PriceFeed {
	if feed == nil {
		return nil
	}
	return &registry.PriceFeed{
		Address:  common.HexToAddress(feed.Address).Hex(),
		Decimals: feed.Decimals,
		MaxAge:   time.Duration(feed.MaxAgeSeconds) * time.Second,
	}
}

// validateUint256 checks a decimal integer string that must fit an on-chain uint256.
func validateUint256(path *field.Path, value string) field.ErrorList {
	n, ok := new(big.Int).SetString(value, 10)
	if !ok || n.Cmp(maxUint256) > 0 {
		return field.ErrorList{field.Invalid(path, value, "must be at most 2^256-1")}
	}
	return nil
}

// validateRPCURL checks a node's URL as the CRD's rule does: https, or http to a loopback host
// only, since anyone on the path of plain http can answer for the node (and forge a fill).
func validateRPCURL(path *field.Path, value string) field.ErrorList {
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The value may carry a credential: do not repeat it.
		return field.ErrorList{field.Invalid(path, "<redacted>", "url must be an http or https URL")}
	}
	if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
		return field.ErrorList{field.Invalid(path, "<redacted>", "url must be https: plain http is allowed for a loopback node only, since anyone on the path of plain http can answer for the node")}
	}
	return nil
}

// explorerURLPattern mirrors the CEL rule of spec.explorerUrl: links are built by appending
// /tx/<hash>, which a query or a fragment would swallow.
var explorerURLPattern = regexp.MustCompile(`^https://[^/?#]+(/[^?#]*)?$`)

// validateExplorerURL mirrors the CRD's rules of spec.explorerUrl.
func validateExplorerURL(path *field.Path, value string) field.ErrorList {
	if e := (stringRule{maxLen: 256}).validate(path, value); len(e) > 0 {
		return e
	}
	if u, err := url.Parse(value); err != nil || u.Host == "" || !explorerURLPattern.MatchString(value) {
		return field.ErrorList{field.Invalid(path, value, "explorerUrl must be an https URL without a query or fragment")}
	}
	return nil
}

// isLoopbackHost reports whether host is localhost or a loopback IP literal.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func validateSecretKeyReference(path *field.Path, ref *v1alpha1.SecretKeyReference) field.ErrorList {
	if ref == nil {
		return nil
	}
	errs := stringRule{required: true, minLen: 1, maxLen: 253}.validate(path.Child("name"), ref.Name)
	return append(errs, stringRule{maxLen: 253, pattern: secretKeyPattern}.validate(path.Child("key"), ref.Key)...)
}

func validateLocalObjectReference(path *field.Path, ref v1alpha1.LocalObjectReference) field.ErrorList {
	return stringRule{required: true, minLen: 1, maxLen: 253}.validate(path.Child("name"), ref.Name)
}

// Default keys of a SecretKeyReference without one (see the field's documentation).
const (
	defaultPasswordSecretKey = "passwordHash"
	defaultRPCSecretKey      = "url"
)

// secretKeyOrDefault is ref.Key, or def when the reference names no key.
func secretKeyOrDefault(ref *v1alpha1.SecretKeyReference, def string) string {
	if ref.Key == "" {
		return def
	}
	return ref.Key
}
