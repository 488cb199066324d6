// Reads an exposition with an independent Prometheus text parser (prom2javascript), after a strict line check.
import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetrics } from 'prom2javascript';

export type { PromMetrics };

/** Text format 0.0.4 sample line: name, optional {labels}, value (no timestamps from this server). */
const SAMPLE_LINE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? (-?[0-9.]+(e[+-]?[0-9]+)?|\+Inf|-Inf|NaN)$/;

/**
 * Parses an exposition. The parser skips lines it does not know as comments, so every line is first checked
 * to be # HELP, # TYPE or a sample; it then checks each histogram's +Inf bucket against its _count.
 */
export async function parsePrometheus(text: string): Promise<PromMetrics> {
  const lines = text.split('\n');
  if (lines.pop() !== '') throw new Error('the exposition must end with a line feed');
  for (const line of lines) {
    if (!/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line) && !SAMPLE_LINE.test(line)) throw new Error(`not a sample line: ${line}`);
  }
  return getMetricsFromIterator(lines[Symbol.iterator]());
}

function metric(metrics: PromMetrics, name: string) {
  const found = metrics[name];
  if (!found) throw new Error(`no metric ${name}`);
  return found;
}

function matches(labels: Record<string, string>, wanted: Record<string, string>): boolean {
  return Object.entries(wanted).every(([key, value]) => labels[key] === value);
}

export function typeOf(metrics: PromMetrics, name: string): string {
  return metric(metrics, name).type;
}

/** The samples of a counter or gauge. */
export function samplesOf(metrics: PromMetrics, name: string): PromData[] {
  return metric(metrics, name).data as PromData[];
}

/** The value of the counter or gauge sample whose labels include `labels`; 0 when there is none yet. */
export function valueOf(metrics: PromMetrics, name: string, labels: Record<string, string> = {}): number {
  return samplesOf(metrics, name).find((sample) => matches(sample.labels, labels))?.value ?? 0;
}

/** The histogram series whose labels include `labels`. */
export function histogramOf(metrics: PromMetrics, name: string, labels: Record<string, string> = {}): PromHistogramData | undefined {
  return (metric(metrics, name).data as PromHistogramData[]).find((series) => matches(series.labels, labels));
}
