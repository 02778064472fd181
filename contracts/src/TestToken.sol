// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title TestToken
/// @notice An ERC-20 for local development chains and tests: anyone may mint. It exists so that
/// the service meets a real token contract (balanceOf, allowance, approve, transfer) on the
/// local chain; it must never be deployed to a public network. It takes EIP-2612 permits, as USDC
/// does, so that make run's gasless demo wallet, which holds no ether, approves Permit2 with a
/// signature that the deployer sends.
contract TestToken is ERC20, ERC20Permit {
    uint8 private immutable _tokenDecimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) ERC20Permit(name_) {
        _tokenDecimals = decimals_;
    }

    /// @inheritdoc ERC20
    function decimals() public view override returns (uint8) {
        return _tokenDecimals;
    }

    /// @notice Creates `amount` base units for `to`. Open to anyone: test funds only.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
