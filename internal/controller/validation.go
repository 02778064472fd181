package controller

// The Validate* functions mirror, in Go, the OpenAPI and CEL rules of the CRDs (kept in step with
// the markers in api/v1alpha1), for objects that reached the API server before a rule existed or
// through a path that skipped it, and add what CEL cannot check (EIP-55 checksums, uint256 bounds).
// A reconciler marks an object that fails them Ready=False InvalidSpec and does not retry it.
// The rules several kinds share are internal/fieldrule's, a WebhookEndpoint's are
// internal/webhook/endpoint's: the /webhooks page checks its form by them too.

import (
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/caip"
	"github.com/transferintent/transfer-intent-service/internal/fieldrule"
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
	secretKeyPattern     = regexp.MustCompile(fieldrule.SecretKeyPattern)
	emailPattern         = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	keyHashPattern       = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	displayPrefixPattern = regexp.MustCompile(`^sk_(test|live)_[0-9A-Za-z]{1,8}$`)
	intentIDPattern      = regexp.MustCompile(`^int_transfer_[0-9A-HJKMNP-TV-Z]{26}$`)
	orderIDPattern       = regexp.MustCompile(`^0x[0-9a-f]{64}$`)
	// uint256DecimalPattern: at most 78 digits, as many as 2^256 has.
	uint256DecimalPattern = regexp.MustCompile(`^[0-9]{1,78}$`)
)

// maxUint256 bounds every on-chain integer.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

func validateRange[T int32 | int64](path *field.Path, value, minimum, maximum T) field.ErrorList {
	if value < minimum || value > maximum {
		return field.ErrorList{field.Invalid(path, value, fmt.Sprintf("must be between %d and %d", minimum, maximum))}
	}
	return nil
}

// validateChainID checks a CAIP-2 chain id, and the eip155 reference form.
func validateChainID(path *field.Path, chainID string) field.ErrorList {
	errs := fieldrule.String{Required: true, MaxLen: 41, Pattern: caip2Pattern}.Validate(path, chainID)
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
	errs := fieldrule.String{Required: true, Pattern: hexAddressPattern}.Validate(path.Child("address"), feed.Address)
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

// explorerURLPattern mirrors the CEL rule of spec.explorerUrl: links are built by appending
// /tx/<hash>, which a query or a fragment would swallow.
var explorerURLPattern = regexp.MustCompile(`^https://[^/?#]+(/[^?#]*)?$`)

// validateExplorerURL mirrors the CRD's rules of spec.explorerUrl.
func validateExplorerURL(path *field.Path, value string) field.ErrorList {
	if e := (fieldrule.String{MaxLen: 256}).Validate(path, value); len(e) > 0 {
		return e
	}
	if u, err := url.Parse(value); err != nil || u.Host == "" || !explorerURLPattern.MatchString(value) {
		return field.ErrorList{field.Invalid(path, value, "explorerUrl must be an https URL without a query or fragment")}
	}
	return nil
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
