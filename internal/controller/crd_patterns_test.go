package controller

import (
	"os"
	"path/filepath"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// goPatterns are the Go regular expressions that mirror each pattern marker of the API types (the
// controllers validate objects that reached the API server before a rule existed). Keyed by kind
// and field path; status fields are written by the operator itself and are not mirrored.
var goPatterns = map[string]*regexp.Regexp{
	"Account spec.email":                                emailPattern,
	"Account spec.passwordSecretRef.key":                secretKeyPattern,
	"Account spec.fees.recipients[].chainId":            caip2Pattern,
	"Account spec.fees.recipients[].addresses[]":        hexAddressPattern,
	"TransferIntent spec.request.fee.recipient":         hexAddressPattern,
	"TransferIntent spec.quote.integratorFee.recipient": hexAddressPattern,
	"ApiKey spec.displayPrefix":                         displayPrefixPattern,
	"ApiKey spec.keyHash":                               keyHashPattern,
	"Chain spec.chainId":                                caip2Pattern,
	"Chain spec.defaultGasPriceWei":                     decimalIntPattern,
	"Chain spec.nativeSymbol":                           symbolPattern,
	"Chain spec.nativeTokenPriceUsd":                    decimalPattern,
	"Chain spec.maxGasOnArrival":                        decimalPattern,
	"Chain spec.rpc.urlSecretRef.key":                   secretKeyPattern,
	"Chain spec.witnessRpcs[].urlSecretRef.key":         secretKeyPattern,
	"Chain spec.settlementAddress":                      hexAddressPattern,
	"Chain spec.permit2Address":                         hexAddressPattern,
	"Chain spec.priceFeed.address":                      hexAddressPattern,
	"TokenDefinition spec.priceFeed.address":            hexAddressPattern,
	"TokenDefinition spec.address":                      caip10Pattern,
	"TokenDefinition spec.chainId":                      caip2Pattern,
	"TokenDefinition spec.priceUsd":                     decimalPattern,
	"TokenDefinition spec.limits.maxAmount":             decimalPattern,
	"TokenDefinition spec.symbol":                       symbolPattern,
	"TransferIntent spec.id":                            intentIDPattern,
	"TransferIntent spec.idempotencyKeyHash":            keyHashPattern,
	"TransferIntent spec.orderId":                       orderIDPattern,
	"TransferIntent spec.requestHash":                   keyHashPattern,
	"TransferIntent spec.gasless.permit2":               hexAddressPattern,
	"TransferIntent spec.auction.exclusiveFiller":       hexAddressPattern,
	"TransferIntent spec.gasless.nonce":                 uint256DecimalPattern,
	"TransferIntent spec.request.gasOnArrival.amount":   decimalPattern,
	"TransferIntent spec.request.maxAmountIn":           decimalPattern,
	"WebhookEndpoint spec.secretRef.key":                secretKeyPattern,
	"Filler spec.routes[].fromChainId":                  caip2Pattern,
	"Filler spec.routes[].toChainId":                    caip2Pattern,
	"Filler spec.routes[].tokensIn[]":                   caip10Pattern,
	"Filler spec.routes[].tokensOut[]":                  caip10Pattern,
	"Filler spec.payoutAddresses[].chainId":             caip2Pattern,
	"Filler spec.payoutAddresses[].address":             hexAddressPattern,
}

// TestCRDPatternsMatchGo loads the generated CRDs and holds every spec pattern to its Go mirror,
// so that a marker edited alone (or a Go pattern edited alone) fails here rather than letting the
// API server and the controller disagree about what is valid.
var _ = Describe("The generated CRDs' spec patterns", func() {
	It("each match their Go mirror in goPatterns", func() {
		t := GinkgoTB()
		files, err := filepath.Glob(filepath.Join("..", "..", "config", "crd", "bases", "*.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no CRDs in config/crd/bases (%v)", err)
		}
		seen := map[string]bool{}
		for _, file := range files {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var crd apiextensionsv1.CustomResourceDefinition
			if err := yaml.Unmarshal(raw, &crd); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, version := range crd.Spec.Versions {
				spec := version.Schema.OpenAPIV3Schema.Properties["spec"]
				walkPatterns(spec, "spec", func(path, pattern string) {
					key := crd.Spec.Names.Kind + " " + path
					seen[key] = true
					mirror, ok := goPatterns[key]
					switch {
					case !ok:
						t.Errorf("%s has the pattern %s in its CRD and no Go mirror in goPatterns", key, pattern)
					case mirror.String() != pattern:
						t.Errorf("%s: CRD pattern %s, Go pattern %s", key, pattern, mirror)
					}
				})
			}
		}
		for key := range goPatterns {
			if !seen[key] {
				t.Errorf("%s has a Go pattern but no pattern in its CRD", key)
			}
		}
	})
})

func walkPatterns(schema apiextensionsv1.JSONSchemaProps, path string, visit func(path, pattern string)) {
	if schema.Pattern != "" {
		visit(path, schema.Pattern)
	}
	for name, child := range schema.Properties {
		walkPatterns(child, path+"."+name, visit)
	}
	if schema.Items != nil && schema.Items.Schema != nil {
		walkPatterns(*schema.Items.Schema, path+"[]", visit)
	}
}
