/**
 * A strict reader of Prometheus' text exposition format (0.0.4), for tests that scrape `/metrics`:
 * every line is a `# HELP`, a `# TYPE` or a sample of a family declared before it; label values
 * are quoted and escaped; values are floats (or NaN, +Inf, -Inf). Anything else throws, naming the
 * line, so a malformed exposition fails the test rather than being skipped.
 */
export interface Sample {
  /** The sample's own name (`x_bucket`, `x_sum`, `x_count` for a histogram `x`). */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\[\\"n])*)"(,|$)/;
const SUFFIXES: Record<Family['type'], string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, i) => {
    const where = `line ${i + 1} (${JSON.stringify(line)})`;
    if (line === '') return;
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) {
      const [, keyword, name, ...rest] = line.split(' ');
      if (name === undefined || !NAME.test(name)) throw new Error(`${where}: bad metric name`);
      const family = families.get(name) ?? { name, type: 'untyped', help: '', samples: [] };
      if (keyword === 'HELP') family.help = rest.join(' ');
      else {
        const type = rest.join(' ');
        if (!(type in SUFFIXES)) throw new Error(`${where}: unknown type ${type}`);
        if (family.samples.length > 0) throw new Error(`${where}: TYPE after the family's samples`);
        family.type = type as Family['type'];
      }
      families.set(name, family);
      return;
    }
    if (line.startsWith('#')) return;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`${where}: not a sample`);
    const [, name, , labelText, valueText] = match as unknown as [string, string, string, string | undefined, string];
    const family = [...families.values()].find((f) => SUFFIXES[f.type].some((suffix) => `${f.name}${suffix}` === name));
    if (family === undefined) throw new Error(`${where}: sample of an undeclared family`);
    family.samples.push({ name, labels: parseLabels(labelText ?? '', where), value: parseValue(valueText, where) });
  });
  return families;
}

function parseLabels(text: string, where: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest.length > 0) {
    const match = LABEL.exec(rest);
    if (!match) throw new Error(`${where}: bad labels at ${JSON.stringify(rest)}`);
    const [whole, label, escaped] = match as unknown as [string, string, string];
    if (label in labels) throw new Error(`${where}: label ${label} twice`);
    labels[label] = escaped.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(whole.length);
  }
  return labels;
}

function parseValue(text: string, where: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`${where}: bad value ${text}`);
  return value;
}

/** The sum of a family's samples named `name` (default: the family's own) whose labels include `labels`. */
export function sampleSum(families: Map<string, Family>, family: string, labels: Record<string, string> = {}, name = family): number {
  const found = families.get(family);
  if (found === undefined) throw new Error(`no family ${family} in the exposition`);
  return found.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
