// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IENSRegistry {
    function resolver(bytes32 node) external view returns (address);
}

/// ABI-compatible with what viem 2.57's ENS actions call on ENS's UniversalResolver:
/// `resolveWithGateways(bytes name, bytes data, string[] gateways)` and
/// `reverseWithGateways(bytes lookupAddress, uint256 coinType, string[] gateways)`, with the same
/// custom errors (viem maps ResolverNotFound, ResolverError, ReverseAddressMismatch… to null).
/// On-chain resolvers only: no CCIP-Read (the gateways are ignored), no ENSIP-10 wildcards (the
/// resolver must be set on the exact name). Reverse resolution supports coin type 60 (ETH) via
/// `<addr>.addr.reverse`.
contract UniversalResolver {
    // namehash("addr.reverse")
    bytes32 public constant ADDR_REVERSE_NODE = 0x91d1777781884d03a6757a803996e38de2a42967fb37eeaca72729271025a9e2;
    uint256 public constant COIN_TYPE_ETH = 60;

    IENSRegistry public immutable registry;

    error DNSDecodingFailed(bytes dns);
    error DNSEncodingFailed(string ens);
    error EmptyAddress();
    error HttpError(uint16 status, string message);
    error InvalidBatchGatewayResponse();
    error ResolverError(bytes errorData);
    error ResolverNotContract(bytes name, address resolver);
    error ResolverNotFound(bytes name);
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error UnsupportedResolverProfile(bytes4 selector);

    constructor(address registry_) {
        registry = IENSRegistry(registry_);
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7;
    }

    /// Resolves `name` (DNS wire format) by calling its resolver with `data`.
    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata)
        external
        view
        returns (bytes memory result, address resolver)
    {
        return _resolve(name, data);
    }

    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory, address) {
        return _resolve(name, data);
    }

    /// The primary name of `lookupAddress` (20 bytes), checked by forward resolution.
    function reverseWithGateways(bytes calldata lookupAddress, uint256 coinType, string[] calldata)
        external
        view
        returns (string memory primary, address resolver, address reverseResolver)
    {
        return _reverse(lookupAddress, coinType);
    }

    function reverse(bytes calldata lookupAddress, uint256 coinType)
        external
        view
        returns (string memory, address, address)
    {
        return _reverse(lookupAddress, coinType);
    }

    function _resolve(bytes memory name, bytes memory data) internal view returns (bytes memory, address) {
        (address resolver, bytes32 node) = _findResolver(name);
        if (resolver == address(0)) revert ResolverNotFound(name);
        if (resolver.code.length == 0) revert ResolverNotContract(name, resolver);
        // The call data carries the node; it must be this name's.
        if (data.length < 36 || _word(data, 4) != node) revert ResolverError(data);
        (bool ok, bytes memory ret) = resolver.staticcall(data);
        if (!ok) {
            if (ret.length == 0) revert UnsupportedResolverProfile(bytes4(data));
            revert ResolverError(ret);
        }
        return (ret, resolver);
    }

    function _reverse(bytes memory lookupAddress, uint256 coinType)
        internal
        view
        returns (string memory primary, address resolver, address reverseResolver)
    {
        if (lookupAddress.length == 0) revert EmptyAddress();
        bytes memory reverseName = abi.encodePacked(
            uint8(40), _hexLower(lookupAddress), uint8(4), "addr", uint8(7), "reverse", uint8(0)
        );
        if (coinType != COIN_TYPE_ETH || lookupAddress.length != 20) revert ResolverNotFound(reverseName);
        bytes32 reverseNode = _namehash(reverseName, 0);
        reverseResolver = registry.resolver(reverseNode);
        if (reverseResolver == address(0)) revert ResolverNotFound(reverseName);
        if (reverseResolver.code.length == 0) revert ResolverNotContract(reverseName, reverseResolver);
        (bool ok, bytes memory ret) = reverseResolver.staticcall(abi.encodeWithSignature("name(bytes32)", reverseNode));
        if (!ok) revert ResolverError(ret);
        primary = abi.decode(ret, (string));
        if (bytes(primary).length == 0) return (primary, address(0), reverseResolver);

        bytes memory dnsName = _dnsEncode(primary);
        bytes memory addrResult;
        (addrResult, resolver) = _resolve(dnsName, abi.encodeWithSignature("addr(bytes32)", _namehash(dnsName, 0)));
        address resolved = abi.decode(addrResult, (address));
        if (keccak256(abi.encodePacked(resolved)) != keccak256(lookupAddress)) {
            revert ReverseAddressMismatch(primary, abi.encodePacked(resolved));
        }
    }

    /// The resolver set on the name itself (ENSIP-10 parent resolvers are not used) and its node.
    function _findResolver(bytes memory name) internal view returns (address, bytes32) {
        bytes32 node = _namehash(name, 0);
        return (registry.resolver(node), node);
    }

    function _namehash(bytes memory name, uint256 offset) internal pure returns (bytes32) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 len = uint8(name[offset]);
        if (len == 0) {
            if (offset + 1 != name.length) revert DNSDecodingFailed(name);
            return bytes32(0);
        }
        if (offset + 1 + len >= name.length) revert DNSDecodingFailed(name);
        bytes32 labelHash;
        assembly {
            labelHash := keccak256(add(add(name, 33), offset), len)
        }
        return keccak256(abi.encodePacked(_namehash(name, offset + 1 + len), labelHash));
    }

    function _dnsEncode(string memory ens) internal pure returns (bytes memory dns) {
        bytes memory s = bytes(ens);
        dns = new bytes(s.length + 2);
        uint256 labelStart = 0;
        for (uint256 i = 0; i <= s.length; i++) {
            if (i == s.length || s[i] == ".") {
                uint256 len = i - labelStart;
                if (len == 0 || len > 255) revert DNSEncodingFailed(ens);
                dns[labelStart] = bytes1(uint8(len));
                for (uint256 j = labelStart; j < i; j++) dns[j + 1] = s[j];
                labelStart = i + 1;
            }
        }
        dns[s.length + 1] = 0;
    }

    function _hexLower(bytes memory data) internal pure returns (bytes memory out) {
        bytes16 digits = "0123456789abcdef";
        out = new bytes(data.length * 2);
        for (uint256 i = 0; i < data.length; i++) {
            out[2 * i] = digits[uint8(data[i]) >> 4];
            out[2 * i + 1] = digits[uint8(data[i]) & 0x0f];
        }
    }

    function _word(bytes memory data, uint256 offset) internal pure returns (bytes32 w) {
        assembly {
            w := mload(add(add(data, 32), offset))
        }
    }
}
