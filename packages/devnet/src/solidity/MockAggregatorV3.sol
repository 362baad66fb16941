// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./Owned.sol";

/// A Chainlink AggregatorV3Interface price feed whose answer the owner sets. Every update is a new
/// round (ids from 1), kept for getRoundData; updatedAt is the block time or a given time.
contract MockAggregatorV3 is Owned {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    uint80 public latestRound;
    mapping(uint80 => Round) private _rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    error NoDataPresent();

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer, address owner_) Owned(owner_) {
        decimals = decimals_;
        description = description_;
        _update(initialAnswer, block.timestamp);
    }

    function setAnswer(int256 answer) external onlyOwner {
        _update(answer, block.timestamp);
    }

    /// For seeding history: an update stamped with an explicit time (not after the block time).
    function setAnswerAt(int256 answer, uint256 updatedAt) external onlyOwner {
        require(updatedAt <= block.timestamp, "future updatedAt");
        _update(answer, updatedAt);
    }

    function latestAnswer() external view returns (int256) {
        return _rounds[latestRound].answer;
    }

    function latestTimestamp() external view returns (uint256) {
        return _rounds[latestRound].updatedAt;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId) public view returns (uint80, int256, uint256, uint256, uint80) {
        Round memory round = _rounds[roundId];
        if (round.updatedAt == 0) revert NoDataPresent();
        return (roundId, round.answer, round.startedAt, round.updatedAt, roundId);
    }

    function _update(int256 answer, uint256 updatedAt) internal {
        uint80 roundId = latestRound + 1;
        latestRound = roundId;
        _rounds[roundId] = Round(answer, updatedAt, updatedAt);
        emit NewRound(roundId, msg.sender, updatedAt);
        emit AnswerUpdated(answer, roundId, updatedAt);
    }
}
