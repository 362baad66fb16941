// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The ENS registry calls the controller makes (from ENS's `ENS` interface).
interface IEnsRegistryWriter {
    function owner(bytes32 node) external view returns (address);
    function setSubnodeRecord(bytes32 node, bytes32 label, address owner, address resolver, uint64 ttl) external;
    function setOwner(bytes32 node, address owner) external;
}

/// A devnet stand-in for ENS's `ETHRegistrarController`: it owns the `eth` node in the registry and
/// registers `<name>.eth` the way mainnet does as seen from the chain's events, so an indexer
/// learns names and their owners on the devnet as it would on mainnet: the label string from this
/// contract's `NameRegistered` (mainnet's exact signature), ownership from the registry's
/// `NewOwner` (the node created, owned by this controller while it writes the records) and then
/// `Transfer(bytes32 indexed node, address owner)` to the registrant.
///
/// `register` is for the admin (the deployer) only. Left out: the commit/reveal scheme, rent
/// payment and pricing (`baseCost` and `premium` are 0), expiry (`expires` is type(uint64).max and
/// nothing expires), the base registrar's ERC-721 token for the name (the registry itself records
/// the owner), the name wrapper, and reverse records (the owner sets its primary name with the
/// reverse registrar). Names are taken as given: the caller normalises them (ENSIP-15).
contract DevEthRegistrarController {
    /// The registry whose `eth` node this controller owns.
    IEnsRegistryWriter public immutable ens;
    /// namehash("eth").
    bytes32 public immutable baseNode;
    /// The only account that may register (the deployer).
    address public immutable admin;

    /// Mainnet's ETHRegistrarController event (topic0 = keccak256 of this signature).
    event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires);

    error NotAdmin(address caller);
    /// The name is empty or already has an owner in the registry (mainnet's error).
    error NameNotAvailable(string name);
    /// Records were given without a resolver to write them to (mainnet's error).
    error ResolverRequiredWhenDataSupplied();
    /// A record call does not address the name being registered (mainnet's multicallWithNodeCheck rule).
    error RecordNodeMismatch(uint256 index);
    /// A record call on the resolver reverted; `reason` is its revert data.
    error RecordFailed(uint256 index, bytes reason);

    constructor(IEnsRegistryWriter ens_, bytes32 baseNode_) {
        ens = ens_;
        baseNode = baseNode_;
        admin = msg.sender;
    }

    /// True when `<name>.eth` may be registered: a non-empty label whose node has no owner.
    function available(string calldata name) public view returns (bool) {
        return bytes(name).length > 0 && ens.owner(_node(keccak256(bytes(name)))) == address(0);
    }

    /// Registers `<name>.eth` for `owner`: creates the node owned by this controller with
    /// `resolver`, runs each `data` call on the resolver (e.g. `setAddr(node, a)`,
    /// `setText(node, key, value)`; each must address the new node), hands the node to `owner`
    /// and emits `NameRegistered`.
    function register(string calldata name, address owner, address resolver, bytes[] calldata data) external {
        if (msg.sender != admin) revert NotAdmin(msg.sender);
        if (!available(name)) revert NameNotAvailable(name);
        if (resolver == address(0) && data.length != 0) revert ResolverRequiredWhenDataSupplied();
        bytes32 label = keccak256(bytes(name));
        bytes32 node = _node(label);
        ens.setSubnodeRecord(baseNode, label, address(this), resolver, 0);
        for (uint256 i = 0; i < data.length; i++) {
            if (data[i].length < 36 || bytes32(data[i][4:36]) != node) revert RecordNodeMismatch(i);
            (bool ok, bytes memory reason) = resolver.call(data[i]);
            if (!ok) revert RecordFailed(i, reason);
        }
        ens.setOwner(node, owner);
        emit NameRegistered(name, label, owner, 0, 0, type(uint64).max);
    }

    function _node(bytes32 label) private view returns (bytes32) {
        return keccak256(abi.encodePacked(baseNode, label));
    }
}
