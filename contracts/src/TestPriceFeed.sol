// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title TestPriceFeed
/// @notice A Chainlink AggregatorV3-compatible price feed for local development chains and tests:
/// its owner sets the answer, its update time and its decimals. It exists so that the service reads
/// a real latestRoundData() on the local chain; it must never be deployed to a public network.
contract TestPriceFeed {
    address public immutable owner;
    uint8 public decimals;
    string public description;
    uint256 public constant version = 4;

    uint80 private _roundId;
    int256 private _answer;
    uint256 private _updatedAt;

    error NotOwner(address caller);

    /// @notice Emitted by each setAnswer, like a Chainlink aggregator's AnswerUpdated.
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    constructor(uint8 decimals_, string memory description_, int256 answer_) {
        owner = msg.sender;
        decimals = decimals_;
        description = description_;
        _set(answer_, block.timestamp);
    }

    /// @notice Sets the answer as of updatedAt_ (0 means now); a past updatedAt_ makes the feed stale.
    function setAnswer(int256 answer_, uint256 updatedAt_) external {
        if (msg.sender != owner) {
            revert NotOwner(msg.sender);
        }
        _set(answer_, updatedAt_ == 0 ? block.timestamp : updatedAt_);
    }

    /// @notice Changes the decimals of the answer (the answer itself is not rescaled).
    function setDecimals(uint8 decimals_) external {
        if (msg.sender != owner) {
            revert NotOwner(msg.sender);
        }
        decimals = decimals_;
    }

    /// @notice AggregatorV3Interface.latestRoundData.
    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (_roundId, _answer, _updatedAt, _updatedAt, _roundId);
    }

    function _set(int256 answer_, uint256 updatedAt_) private {
        _roundId++;
        _answer = answer_;
        _updatedAt = updatedAt_;
        emit AnswerUpdated(answer_, _roundId, updatedAt_);
    }
}
