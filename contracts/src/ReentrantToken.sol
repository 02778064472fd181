// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ReentrantToken
/// @notice A hostile ERC-20 for the settlement contract's tests only: on every transfer it calls a
/// configured target with configured calldata (a re-entry into the settlement contract) and records
/// whether that call succeeded. It must never be deployed to a public network.
contract ReentrantToken is ERC20 {
    address public target;
    bytes public payload;
    bool public reentered;
    uint256 public attempts;

    constructor() ERC20("Reentrant", "REENT") {}

    /// @notice Anyone may mint: test funds only.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Arms the hook: every later transfer calls target with data once.
    function arm(address target_, bytes calldata data) external {
        target = target_;
        payload = data;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (target != address(0) && from != address(0)) {
            address t = target;
            target = address(0); // one attempt per arming, so the hook cannot recurse forever
            attempts++;
            (bool ok,) = t.call(payload);
            if (ok) {
                reentered = true;
            }
        }
    }
}
