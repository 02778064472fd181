package reverts

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/transferintent/transfer-intent-service/api/v1alpha1"
	"github.com/transferintent/transfer-intent-service/internal/chain/contracts"
)

// revertData is what a contract reverts with for error name of a: its selector, then its
// arguments ABI-encoded, built from the ABI itself.
func revertData(t *testing.T, a abi.ABI, name string, args ...any) []byte {
	t.Helper()
	e, ok := a.Errors[name]
	if !ok {
		t.Fatalf("the ABI has no error %s", name)
	}
	packed, err := e.Inputs.Pack(args...)
	if err != nil {
		t.Fatalf("packing %s: %v", name, err)
	}
	return append(append([]byte{}, e.ID[:4]...), packed...)
}

func builtin(t *testing.T, sig, typ string, arg any) []byte {
	t.Helper()
	ty, err := abi.NewType(typ, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := abi.Arguments{{Type: ty}}.Pack(arg)
	if err != nil {
		t.Fatal(err)
	}
	m := abi.NewMethod(sig, sig, abi.Function, "", false, false, abi.Arguments{{Type: ty}}, nil)
	return append(append([]byte{}, m.ID[:4]...), packed...)
}

// Each error a client can act on decodes to its name, its named arguments as text and its code;
// any other known error to its name and reverted; data the decoder does not know to reverted,
// named by its selector.
func TestDecode(t *testing.T) {
	settle, permit2, erc20 := contracts.NewSettlement().GetABI(), contracts.NewPermit2().GetABI(), contracts.NewIERC20Errors().GetABI()
	sender := common.HexToAddress("0x00000000000000000000000000000000000000aB")
	orderID := common.HexToHash("0x0102")
	for _, tc := range []struct {
		name     string
		data     []byte
		wantName string
		wantArgs map[string]string
		wantCode v1alpha1.FailureCode
		wantText string
	}{
		{"ERC20InsufficientBalance", revertData(t, erc20, "ERC20InsufficientBalance", sender, big.NewInt(0), big.NewInt(900_000_000)),
			"ERC20InsufficientBalance", map[string]string{"sender": sender.Hex(), "balance": "0", "needed": "900000000"},
			v1alpha1.FailureInsufficientBalance, "ERC20InsufficientBalance(sender: " + sender.Hex() + ", balance: 0, needed: 900000000)"},
		{"ERC20InsufficientAllowance", revertData(t, erc20, "ERC20InsufficientAllowance", sender, big.NewInt(5), big.NewInt(7)),
			"ERC20InsufficientAllowance", map[string]string{"spender": sender.Hex(), "allowance": "5", "needed": "7"},
			v1alpha1.FailureInsufficientAllowance, ""},
		{"ERC20InvalidReceiver", revertData(t, erc20, "ERC20InvalidReceiver", common.Address{}),
			"ERC20InvalidReceiver", map[string]string{"receiver": common.Address{}.Hex()}, v1alpha1.FailureReverted, ""},
		{"DeadlinePassed", revertData(t, settle, "DeadlinePassed"), "DeadlinePassed", nil, v1alpha1.FailureDeadlinePassed, "DeadlinePassed()"},
		{"OpenDeadlinePassed", revertData(t, settle, "OpenDeadlinePassed"), "OpenDeadlinePassed", nil, v1alpha1.FailureDeadlinePassed, ""},
		{"BelowMinimum", revertData(t, settle, "BelowMinimum", big.NewInt(99), big.NewInt(100)),
			"BelowMinimum", map[string]string{"amountOut": "99", "minAmountOut": "100"}, v1alpha1.FailureBelowMinimum, ""},
		{"AlreadyOpened", revertData(t, settle, "AlreadyOpened", [32]byte(orderID)),
			"AlreadyOpened", map[string]string{"orderId": orderID.Hex()}, v1alpha1.FailureAlreadyOpened, ""},
		{"EnforcedPause", revertData(t, settle, "EnforcedPause"), "EnforcedPause", nil, v1alpha1.FailurePaused, ""},
		{"settlement InsufficientBalance", revertData(t, settle, "InsufficientBalance", big.NewInt(1), big.NewInt(2)),
			"InsufficientBalance", map[string]string{"balance": "1", "needed": "2"}, v1alpha1.FailureInsufficientBalance, ""},
		{"settlement InvalidAmount is not Permit2's", revertData(t, settle, "InvalidAmount"), "InvalidAmount", nil, v1alpha1.FailureReverted, ""},
		{"a settlement error of no code", revertData(t, settle, "WrongChain"), "WrongChain", nil, v1alpha1.FailureReverted, "WrongChain()"},
		{"Permit2 InvalidNonce", revertData(t, permit2, "InvalidNonce"), "InvalidNonce", nil, v1alpha1.FailureNonceUsed, ""},
		{"Permit2 SignatureExpired", revertData(t, permit2, "SignatureExpired", big.NewInt(1700000000)),
			"SignatureExpired", map[string]string{"signatureDeadline": "1700000000"}, v1alpha1.FailureDeadlinePassed, ""},
		{"Permit2 InvalidSigner", revertData(t, permit2, "InvalidSigner"), "InvalidSigner", nil, v1alpha1.FailureInvalidSignature, ""},
		{"Permit2 InvalidSignature", revertData(t, permit2, "InvalidSignature"), "InvalidSignature", nil, v1alpha1.FailureInvalidSignature, ""},
		{"Permit2 InvalidSignatureLength", revertData(t, permit2, "InvalidSignatureLength"), "InvalidSignatureLength", nil, v1alpha1.FailureInvalidSignature, ""},
		{"Permit2 InvalidContractSignature", revertData(t, permit2, "InvalidContractSignature"), "InvalidContractSignature", nil, v1alpha1.FailureInvalidSignature, ""},
		{"Permit2 InsufficientAllowance", revertData(t, permit2, "InsufficientAllowance", big.NewInt(3)),
			"InsufficientAllowance", map[string]string{"amount": "3"}, v1alpha1.FailureInsufficientAllowance, ""},
		{"Permit2 AllowanceExpired", revertData(t, permit2, "AllowanceExpired", big.NewInt(4)),
			"AllowanceExpired", map[string]string{"deadline": "4"}, v1alpha1.FailureInsufficientAllowance, ""},
		{"Error(string) of an OpenZeppelin 4 token", builtin(t, "Error", "string", "ERC20: transfer amount exceeds balance"),
			"Error", map[string]string{"message": "ERC20: transfer amount exceeds balance"}, v1alpha1.FailureInsufficientBalance,
			"ERC20: transfer amount exceeds balance"},
		{"Error(string) of another reason", builtin(t, "Error", "string", "nope\n\x07"), "Error", map[string]string{"message": "nope"}, v1alpha1.FailureReverted, "nope"},
		{"Panic(uint256)", builtin(t, "Panic", "uint256", big.NewInt(0x11)), "Panic", map[string]string{"reason": "arithmetic underflow or overflow"},
			v1alpha1.FailureReverted, "panic: arithmetic underflow or overflow"},
		{"an unknown selector", []byte{0xde, 0xad, 0xbe, 0xef, 1}, "", nil, v1alpha1.FailureReverted, "custom error 0xdeadbeef"},
		{"a known selector with arguments of no error", revertData(t, erc20, "ERC20InsufficientBalance", sender, big.NewInt(0), big.NewInt(1))[:40],
			"", nil, v1alpha1.FailureReverted, ""},
		{"no data", nil, "", nil, v1alpha1.FailureReverted, "reverted without a reason"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Decode(tc.data)
			if r.Name != tc.wantName || r.Code != tc.wantCode {
				t.Fatalf("Decode: %s, code %s; want %s, %s", r.Name, r.Code, tc.wantName, tc.wantCode)
			}
			st := r.Status()
			if len(tc.data) < 4 {
				if st != nil {
					t.Fatalf("status %+v of no selector", st)
				}
				return
			}
			if st.Selector != "0x"+common.Bytes2Hex(tc.data[:4]) || st.Name != tc.wantName || len(st.Args) != len(tc.wantArgs) {
				t.Fatalf("status %+v; want %s with %v", st, tc.wantName, tc.wantArgs)
			}
			for k, v := range tc.wantArgs {
				if st.Args[k] != v {
					t.Errorf("arg %s = %q; want %q", k, st.Args[k], v)
				}
			}
			if tc.wantText != "" && r.String() != tc.wantText {
				t.Errorf("String() = %q; want %q", r.String(), tc.wantText)
			}
		})
	}
}

// Every signature the code table names is an error of one of the ABIs, so a renamed error in
// contracts/src cannot leave a code behind unnoticed.
func TestEveryCodedSignatureIsKnown(t *testing.T) {
	sigs := map[string]bool{}
	for _, e := range known {
		sigs[e.Sig] = true
	}
	for sig := range codeBySignature {
		if !sigs[sig] {
			t.Errorf("%s is in no ABI the decoder reads", sig)
		}
	}
}

// A contract's string argument is bounded and has no control characters.
func TestLongStringsAreBounded(t *testing.T) {
	r := Decode(builtin(t, "Error", "string", strings.Repeat("é", 400)))
	if got := r.Args[0].Value; len(got) > MaxArgBytes || !strings.HasPrefix(got, "éé") || strings.ContainsRune(got, '\uFFFD') {
		t.Fatalf("%d bytes: %q", len(got), got)
	}
}
