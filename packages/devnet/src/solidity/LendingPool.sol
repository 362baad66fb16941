// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./Owned.sol";

interface IERC20Minimal {
    function decimals() external view returns (uint8);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IAggregatorV3 {
    function decimals() external view returns (uint8);
    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80);
}

/// A lending pool with Aave V3's Pool interface for supply / withdraw / borrow / repay /
/// liquidationCall / getUserAccountData and Aave V3's event signatures. Simplified: every supplied
/// asset is collateral; interest does not accrue with time (the borrow rate in the Borrow event is
/// the reserve's configured rate, in ray): it is posted in discrete amounts by the owner with
/// `chargeInterest`, which the devnet's seeding plans (every 30 days on each open loan of its
/// population), so a running devnet's figures do not drift between two requests; variable rate
/// mode (2) only; no aTokens (balances are kept here; receiveAToken must be false). Values in the
/// base currency are USD with 8 decimals, priced by each reserve's Chainlink-compatible feed (8
/// decimals).
contract LendingPool is Owned {
    uint256 public constant HEALTH_FACTOR_LIQUIDATION_THRESHOLD = 1e18;
    /// Below this health factor a liquidation may close the whole position (Aave V3.0's rule).
    uint256 public constant CLOSE_FACTOR_HF_THRESHOLD = 0.95e18;
    uint256 public constant DEFAULT_LIQUIDATION_CLOSE_FACTOR = 5000;
    uint256 public constant MAX_LIQUIDATION_CLOSE_FACTOR = 10000;

    struct Reserve {
        bool active;
        uint8 decimals;
        address priceFeed;
        uint16 ltv; // basis points
        uint16 liquidationThreshold; // basis points
        uint16 liquidationBonus; // basis points over 100%, e.g. 500 = 5%
        uint256 variableBorrowRate; // ray, reported in Borrow events
        uint256 totalSupplied;
        uint256 totalBorrowed;
    }

    address[] private _reservesList;
    mapping(address => Reserve) public reserves;
    mapping(address => mapping(address => uint256)) public supplied; // user => asset => amount
    mapping(address => mapping(address => uint256)) public borrowed; // user => asset => amount

    event ReserveInitialized(address indexed asset, address priceFeed, uint16 ltv, uint16 liquidationThreshold, uint16 liquidationBonus);
    event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode);
    event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount);
    event Borrow(
        address indexed reserve,
        address user,
        address indexed onBehalfOf,
        uint256 amount,
        uint8 interestRateMode,
        uint256 borrowRate,
        uint16 indexed referralCode
    );
    event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens);
    event LiquidationCall(
        address indexed collateralAsset,
        address indexed debtAsset,
        address indexed user,
        uint256 debtToCover,
        uint256 liquidatedCollateralAmount,
        address liquidator,
        bool receiveAToken
    );
    event ReserveUsedAsCollateralEnabled(address indexed reserve, address indexed user);
    /// Not an Aave event (Aave accrues interest continuously, with no event): a posting of interest
    /// onto a user's debt by the operator (`chargeInterest`).
    event InterestCharged(address indexed reserve, address indexed user, uint256 amount);

    error ReserveNotActive();
    error InvalidAmount();
    error InvalidInterestRateMode();
    error OnBehalfOfMustBeSender();
    error NotEnoughAvailableUserBalance();
    error CollateralCannotCoverNewBorrow();
    error HealthFactorLowerThanLiquidationThreshold();
    error HealthFactorNotBelowThreshold();
    error NoDebtOfSelectedType();
    error NoCollateralOfSelectedType();
    error ATokensNotSupported();
    error InvalidPrice();
    error TransferFailed();

    constructor(address owner_) Owned(owner_) {}

    function initReserve(
        address asset,
        address priceFeed,
        uint16 ltv,
        uint16 liquidationThreshold,
        uint16 liquidationBonus,
        uint256 variableBorrowRate
    ) external onlyOwner {
        require(ltv <= liquidationThreshold && liquidationThreshold <= 10000, "bad risk parameters");
        require(IAggregatorV3(priceFeed).decimals() == 8, "feed must have 8 decimals");
        Reserve storage r = reserves[asset];
        if (!r.active) _reservesList.push(asset);
        r.active = true;
        r.decimals = IERC20Minimal(asset).decimals();
        r.priceFeed = priceFeed;
        r.ltv = ltv;
        r.liquidationThreshold = liquidationThreshold;
        r.liquidationBonus = liquidationBonus;
        r.variableBorrowRate = variableBorrowRate;
        emit ReserveInitialized(asset, priceFeed, ltv, liquidationThreshold, liquidationBonus);
    }

    function getReservesList() external view returns (address[] memory) {
        return _reservesList;
    }

    function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode) external {
        Reserve storage r = _active(asset);
        if (amount == 0) revert InvalidAmount();
        _pull(asset, msg.sender, amount);
        if (supplied[onBehalfOf][asset] == 0) emit ReserveUsedAsCollateralEnabled(asset, onBehalfOf);
        supplied[onBehalfOf][asset] += amount;
        r.totalSupplied += amount;
        emit Supply(asset, msg.sender, onBehalfOf, amount, referralCode);
    }

    function withdraw(address asset, uint256 amount, address to) external returns (uint256) {
        Reserve storage r = _active(asset);
        uint256 balance = supplied[msg.sender][asset];
        uint256 amountToWithdraw = amount == type(uint256).max ? balance : amount;
        if (amountToWithdraw == 0) revert InvalidAmount();
        if (amountToWithdraw > balance) revert NotEnoughAvailableUserBalance();
        supplied[msg.sender][asset] = balance - amountToWithdraw;
        r.totalSupplied -= amountToWithdraw;
        (,,,,, uint256 healthFactor) = getUserAccountData(msg.sender);
        if (healthFactor < HEALTH_FACTOR_LIQUIDATION_THRESHOLD) revert HealthFactorLowerThanLiquidationThreshold();
        _push(asset, to, amountToWithdraw);
        emit Withdraw(asset, msg.sender, to, amountToWithdraw);
        return amountToWithdraw;
    }

    function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf) external {
        Reserve storage r = _active(asset);
        if (amount == 0) revert InvalidAmount();
        if (interestRateMode != 2) revert InvalidInterestRateMode();
        if (onBehalfOf != msg.sender) revert OnBehalfOfMustBeSender();
        (,, uint256 availableBorrowsBase,,,) = getUserAccountData(onBehalfOf);
        // rounded up, so that no amount, however small, borrows for free
        if (_toBaseRoundedUp(r, amount) > availableBorrowsBase) revert CollateralCannotCoverNewBorrow();
        borrowed[onBehalfOf][asset] += amount;
        r.totalBorrowed += amount;
        _push(asset, msg.sender, amount);
        emit Borrow(asset, msg.sender, onBehalfOf, amount, 2, r.variableBorrowRate, referralCode);
    }

    function repay(address asset, uint256 amount, uint256 interestRateMode, address onBehalfOf) external returns (uint256) {
        Reserve storage r = _active(asset);
        if (interestRateMode != 2) revert InvalidInterestRateMode();
        if (amount == 0) revert InvalidAmount();
        uint256 debt = borrowed[onBehalfOf][asset];
        if (debt == 0) revert NoDebtOfSelectedType();
        uint256 paybackAmount = amount < debt ? amount : debt;
        _pull(asset, msg.sender, paybackAmount);
        borrowed[onBehalfOf][asset] = debt - paybackAmount;
        r.totalBorrowed -= paybackAmount;
        emit Repay(asset, onBehalfOf, msg.sender, paybackAmount, false);
        return paybackAmount;
    }

    function liquidationCall(address collateralAsset, address debtAsset, address user, uint256 debtToCover, bool receiveAToken)
        external
    {
        if (receiveAToken) revert ATokensNotSupported();
        (uint256 actualDebt, uint256 collateralAmount) = _liquidationPlan(collateralAsset, debtAsset, user, debtToCover);
        _pull(debtAsset, msg.sender, actualDebt);
        borrowed[user][debtAsset] -= actualDebt;
        reserves[debtAsset].totalBorrowed -= actualDebt;
        supplied[user][collateralAsset] -= collateralAmount;
        reserves[collateralAsset].totalSupplied -= collateralAmount;
        _push(collateralAsset, msg.sender, collateralAmount);
        emit LiquidationCall(collateralAsset, debtAsset, user, actualDebt, collateralAmount, msg.sender, false);
    }

    /// Owner only: adds `amount` of interest to `user`'s debt in `asset` (and to the reserve's total
    /// borrowed), lowering its health factor. Interest here is discrete postings by the operator,
    /// planned by the devnet's seeding, rather than a continuous accrual: a running devnet's figures
    /// then do not drift between requests. Reverts without debt in `asset`.
    function chargeInterest(address user, address asset, uint256 amount) external onlyOwner {
        Reserve storage r = _active(asset);
        if (amount == 0) revert InvalidAmount();
        if (borrowed[user][asset] == 0) revert NoDebtOfSelectedType();
        borrowed[user][asset] += amount;
        r.totalBorrowed += amount;
        emit InterestCharged(asset, user, amount);
    }

    /// Checks that the user may be liquidated and applies the close factor (50%, or 100% below a
    /// health factor of 0.95).
    function _liquidationPlan(address collateralAsset, address debtAsset, address user, uint256 debtToCover)
        internal
        view
        returns (uint256, uint256)
    {
        Reserve storage collateral = _active(collateralAsset);
        Reserve storage debtReserve = _active(debtAsset);
        (,,,,, uint256 healthFactor) = getUserAccountData(user);
        if (healthFactor >= HEALTH_FACTOR_LIQUIDATION_THRESHOLD) revert HealthFactorNotBelowThreshold();
        uint256 userDebt = borrowed[user][debtAsset];
        if (userDebt == 0) revert NoDebtOfSelectedType();
        uint256 userCollateral = supplied[user][collateralAsset];
        if (userCollateral == 0) revert NoCollateralOfSelectedType();
        uint256 closeFactor = healthFactor > CLOSE_FACTOR_HF_THRESHOLD ? DEFAULT_LIQUIDATION_CLOSE_FACTOR : MAX_LIQUIDATION_CLOSE_FACTOR;
        uint256 maxDebt = userDebt * closeFactor / 10000;
        return _liquidationAmounts(collateral, debtReserve, debtToCover > maxDebt ? maxDebt : debtToCover, userCollateral);
    }

    /// Collateral seized for a debt amount at the feeds' prices plus the collateral's bonus; when
    /// the user's collateral is short, all of it, for the debt it covers.
    function _liquidationAmounts(Reserve storage collateral, Reserve storage debtReserve, uint256 debtAmount, uint256 userCollateral)
        internal
        view
        returns (uint256 actualDebt, uint256 collateralAmount)
    {
        uint256 collateralUnit = 10 ** collateral.decimals;
        uint256 debtUnit = 10 ** debtReserve.decimals;
        uint256 collateralPrice = _price(collateral);
        uint256 debtPrice = _price(debtReserve);
        uint256 bonus = 10000 + collateral.liquidationBonus;
        actualDebt = debtAmount;
        collateralAmount = (actualDebt * debtPrice * collateralUnit * bonus) / (collateralPrice * debtUnit * 10000);
        if (collateralAmount > userCollateral) {
            collateralAmount = userCollateral;
            actualDebt = (collateralAmount * collateralPrice * debtUnit * 10000) / (debtPrice * collateralUnit * bonus);
        }
    }

    /// Aave V3's account summary: base currency is USD with 8 decimals; ltv and threshold are
    /// collateral-weighted averages in basis points; healthFactor is 1e18-scaled, max uint256
    /// without debt. Rounding: down, at each step.
    function getUserAccountData(address user)
        public
        view
        returns (
            uint256 totalCollateralBase,
            uint256 totalDebtBase,
            uint256 availableBorrowsBase,
            uint256 currentLiquidationThreshold,
            uint256 ltv,
            uint256 healthFactor
        )
    {
        uint256 weightedLtv;
        uint256 weightedThreshold;
        for (uint256 i = 0; i < _reservesList.length; i++) {
            address asset = _reservesList[i];
            Reserve storage r = reserves[asset];
            uint256 collateralAmount = supplied[user][asset];
            uint256 debtAmount = borrowed[user][asset];
            if (collateralAmount == 0 && debtAmount == 0) continue;
            uint256 price = _price(r);
            if (collateralAmount != 0) {
                uint256 value = collateralAmount * price / (10 ** r.decimals);
                totalCollateralBase += value;
                weightedLtv += value * r.ltv;
                weightedThreshold += value * r.liquidationThreshold;
            }
            if (debtAmount != 0) {
                totalDebtBase += debtAmount * price / (10 ** r.decimals);
            }
        }
        if (totalCollateralBase != 0) {
            ltv = weightedLtv / totalCollateralBase;
            currentLiquidationThreshold = weightedThreshold / totalCollateralBase;
        }
        uint256 borrowable = totalCollateralBase * ltv / 10000;
        availableBorrowsBase = borrowable > totalDebtBase ? borrowable - totalDebtBase : 0;
        healthFactor = totalDebtBase == 0
            ? type(uint256).max
            : (totalCollateralBase * currentLiquidationThreshold / 10000) * 1e18 / totalDebtBase;
    }

    function _active(address asset) internal view returns (Reserve storage r) {
        r = reserves[asset];
        if (!r.active) revert ReserveNotActive();
    }

    function _price(Reserve storage r) internal view returns (uint256) {
        (, int256 answer,,,) = IAggregatorV3(r.priceFeed).latestRoundData();
        if (answer <= 0) revert InvalidPrice();
        return uint256(answer);
    }

    function _toBaseRoundedUp(Reserve storage r, uint256 amount) internal view returns (uint256) {
        uint256 unit = 10 ** r.decimals;
        return (amount * _price(r) + unit - 1) / unit;
    }

    function _pull(address asset, address from, uint256 amount) internal {
        if (!IERC20Minimal(asset).transferFrom(from, address(this), amount)) revert TransferFailed();
    }

    function _push(address asset, address to, uint256 amount) internal {
        if (!IERC20Minimal(asset).transfer(to, amount)) revert TransferFailed();
    }
}
