type Json = Record<string, unknown>;

const usd = (value: unknown) => `${Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 })} USD`;
const who = (address: unknown) => (Array.isArray(address) ? `${address.length} addresses` : String(address));

/**
 * A one-line reading of a tool's answer for a model or a person; the answer itself goes with it
 * as JSON (text) and as structured content. Recognises the reply shapes of docs/API.md §2.
 */
export function answerText(body: Json): string {
  if (typeof body.score === 'number') {
    return `Score ${body.score} (decile ${String(body.decile)}, ${String(body.range)}) for ${who(body.address)}, model ${String(body.model_version)}.`;
  }
  if (Array.isArray(body.points)) {
    const points = body.points as Json[];
    const first = points[0];
    const last = points.at(-1);
    if (first === undefined || last === undefined) return `Score history of ${who(body.address)}: no day with activity in the period.`;
    return (
      `Score history of ${who(body.address)}: ${points.length} daily scores from ${String(first.score)} on ${String(first.date)} ` +
      `to ${String(last.score)} on ${String(last.date)} (decile ${String(last.decile)}, ${String(last.range)}), model ${String(body.model_version)}.`
    );
  }
  if (Array.isArray(body.scores)) {
    const scores = body.scores as Json[];
    return `${scores.length} scores: ${scores.map((s) => `${String(s.address)} ${String(s.score)}`).join(', ') || 'none'}.`;
  }
  const report = (body.report ?? body) as Json;
  const summary = report.summary as Json | undefined;
  if (summary !== undefined) {
    return (
      `Report for ${who(report.address)}: assets ${usd(summary.total_asset_usd)}, collateral ${usd(summary.total_collateral_usd)}, ` +
      `debt ${usd(summary.total_debt_usd)}, ${String(summary.count_transactions)} transactions.`
    );
  }
  if (typeof body.total_asset_usd === 'number') {
    const where = typeof body.chain_name === 'string' ? ` on ${body.chain_name}` : '';
    return `Portfolio of ${who(body.address)}${where}: ${usd(body.total_asset_usd)}.`;
  }
  if (typeof body.assets === 'object' && body.assets !== null) {
    return `Sandbox report for ${who(body.address)}: assets ${usd((body.assets as Json).total_value_usd)}.`;
  }
  const sources = ['ens', 'ext_passport', 'poaps', 'social'].filter((key) => body[key] !== undefined);
  return `Identity of ${who(body.address)}: ${sources.join(', ') || 'no source'} known.`;
}
