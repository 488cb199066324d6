// Counters, gauges and histograms, and their rendering in the Prometheus text exposition format 0.0.4.

export type Labels = Record<string, string>;

interface Metric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** The sample lines, without # HELP and # TYPE. */
  samples(): string[];
  /** The state as plain data, to send to another process (--workers). */
  snapshot(): MetricSnapshot;
}

/** One series as plain data: a value (counter, gauge) or bucket counts, sum and count (histogram). */
export interface SeriesSnapshot {
  values: string[];
  value?: number;
  counts?: number[];
  sum?: number;
  count?: number;
}

export interface MetricSnapshot {
  name: string;
  help: string;
  type: Metric['type'];
  labelNames: string[];
  buckets?: number[];
  /** How a gauge of several processes combines: their sum (memory, streams) or the largest (lag). */
  merge?: GaugeMerge;
  series: SeriesSnapshot[];
}

export type GaugeMerge = 'sum' | 'max';

/** Text format 0.0.4: label values escape backslash, double quote and line feed. */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text escapes backslash and line feed. */
function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const pairs = names.map((name, index) => `${name}="${escapeLabelValue(values[index]!)}"`);
  if (extra) pairs.push(extra);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

/** Go's strconv style that Prometheus parsers accept: +Inf, -Inf, NaN, or a plain number. */
function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** One series per combination of label values, kept under a key joined by a character labels never hold. */
abstract class LabelledMetric<S> implements Metric {
  abstract readonly type: Metric['type'];
  protected readonly series = new Map<string, { values: string[]; state: S }>();

  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];

  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
  }

  protected abstract fresh(): S;

  protected stateFor(values: readonly string[]): S {
    const key = values.join('\u0000');
    let entry = this.series.get(key);
    if (!entry) {
      entry = { values: [...values], state: this.fresh() };
      this.series.set(key, entry);
    }
    return entry.state;
  }

  abstract samples(): string[];
  abstract snapshot(): MetricSnapshot;

  protected describe(): Omit<MetricSnapshot, 'series'> {
    return { name: this.name, help: this.help, type: this.type, labelNames: [...this.labelNames] };
  }
}

export class Counter extends LabelledMetric<{ value: number }> {
  readonly type = 'counter';
  protected fresh() { return { value: 0 }; }

  /** Adds amount (default 1) to the series of these label values, in labelNames order. */
  inc(amount = 1, ...labelValues: string[]): void {
    if (amount < 0) throw new RangeError(`${this.name}: a counter only goes up`);
    this.stateFor(labelValues).value += amount;
  }

  get(...labelValues: string[]): number {
    return this.series.get(labelValues.join('\u0000'))?.state.value ?? 0;
  }

  snapshot(): MetricSnapshot {
    return { ...this.describe(), series: [...this.series.values()].map(({ values, state }) => ({ values, value: state.value })) };
  }

  samples(): string[] {
    // A counter without labels shows 0 before its first increment, so it is there to be graphed.
    if (this.series.size === 0 && this.labelNames.length === 0) return [`${this.name} 0`];
    return [...this.series.values()].map(({ values, state }) => `${this.name}${labelText(this.labelNames, values)} ${formatValue(state.value)}`);
  }
}

export class Gauge extends LabelledMetric<{ value: number }> {
  readonly type = 'gauge';
  protected fresh() { return { value: 0 }; }

  private read?: () => number;
  readonly merge: GaugeMerge;

  constructor(name: string, help: string, labelNames: readonly string[] = [], read?: () => number, merge: GaugeMerge = 'sum') {
    super(name, help, labelNames);
    this.read = read;
    this.merge = merge;
  }

  snapshot(): MetricSnapshot {
    if (this.read) this.set(this.read());
    return { ...this.describe(), merge: this.merge, series: [...this.series.values()].map(({ values, state }) => ({ values, value: state.value })) };
  }

  /** From now on the value is read at scrape time from its owner (e.g. the hub's count of open streams). */
  readFrom(read: () => number): void {
    this.read = read;
  }

  set(value: number, ...labelValues: string[]): void {
    this.stateFor(labelValues).value = value;
  }

  inc(amount = 1, ...labelValues: string[]): void {
    this.stateFor(labelValues).value += amount;
  }

  dec(amount = 1, ...labelValues: string[]): void {
    this.stateFor(labelValues).value -= amount;
  }

  get(...labelValues: string[]): number {
    return this.series.get(labelValues.join('\u0000'))?.state.value ?? 0;
  }

  samples(): string[] {
    // A gauge read at scrape time (memory, lag) asks for its value now.
    if (this.read) this.set(this.read());
    if (this.series.size === 0 && this.labelNames.length === 0) return [`${this.name} 0`];
    return [...this.series.values()].map(({ values, state }) => `${this.name}${labelText(this.labelNames, values)} ${formatValue(state.value)}`);
  }
}

interface HistogramState {
  /** Per bucket, not cumulative; cumulated when rendered. */
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends LabelledMetric<HistogramState> {
  readonly type = 'histogram';

  readonly buckets: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames);
    this.buckets = buckets;
    if (buckets.some((bound, index) => index > 0 && bound <= buckets[index - 1]!)) throw new Error(`${name}: buckets must increase`);
  }

  protected fresh(): HistogramState {
    return { counts: new Array<number>(this.buckets.length).fill(0), sum: 0, count: 0 };
  }

  observe(value: number, ...labelValues: string[]): void {
    const state = this.stateFor(labelValues);
    const index = this.buckets.findIndex((bound) => value <= bound);
    if (index !== -1) state.counts[index]!++;
    state.sum += value;
    state.count++;
  }

  /** Adds another process's series (--workers): bucket counts, sums and counts add up. */
  absorb(series: SeriesSnapshot): void {
    const state = this.stateFor(series.values);
    series.counts?.forEach((count, index) => { state.counts[index]! += count; });
    state.sum += series.sum ?? 0;
    state.count += series.count ?? 0;
  }

  snapshot(): MetricSnapshot {
    return {
      ...this.describe(),
      buckets: [...this.buckets],
      series: [...this.series.values()].map(({ values, state }) => ({ values, counts: [...state.counts], sum: state.sum, count: state.count })),
    };
  }

  samples(): string[] {
    const lines: string[] = [];
    for (const { values, state } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, index) => {
        cumulative += state.counts[index]!;
        lines.push(`${this.name}_bucket${labelText(this.labelNames, values, `le="${formatValue(bound)}"`)} ${cumulative}`);
      });
      // The +Inf bucket holds every observation (it equals _count).
      lines.push(`${this.name}_bucket${labelText(this.labelNames, values, 'le="+Inf"')} ${state.count}`);
      lines.push(`${this.name}_sum${labelText(this.labelNames, values)} ${formatValue(state.sum)}`);
      lines.push(`${this.name}_count${labelText(this.labelNames, values)} ${state.count}`);
    }
    return lines;
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];

  register<M extends Metric>(metric: M): M {
    if (this.metrics.some((known) => known.name === metric.name)) throw new Error(`metric ${metric.name} registered twice`);
    this.metrics.push(metric);
    return metric;
  }

  snapshot(): MetricSnapshot[] {
    return this.metrics.map((metric) => metric.snapshot());
  }

  /** The whole exposition: # HELP, # TYPE and samples per metric, ending in a line feed. */
  render(): string {
    const lines: string[] = [];
    for (const metric of this.metrics) {
      lines.push(`# HELP ${metric.name} ${escapeHelp(metric.help)}`, `# TYPE ${metric.name} ${metric.type}`, ...metric.samples());
    }
    return `${lines.join('\n')}\n`;
  }
}

/**
 * One exposition from the snapshots of several processes (--workers): counters and histograms add up, gauges
 * add up or take the largest as each says. A metric takes its description from the first process that has it.
 */
export function renderMerged(processes: readonly MetricSnapshot[][]): string {
  const registry = new Registry();
  const merged = new Map<string, Counter | Gauge | Histogram>();
  for (const snapshots of processes) {
    for (const snapshot of snapshots) {
      let metric = merged.get(snapshot.name);
      if (!metric) {
        metric = snapshot.type === 'counter' ? new Counter(snapshot.name, snapshot.help, snapshot.labelNames)
          : snapshot.type === 'gauge' ? new Gauge(snapshot.name, snapshot.help, snapshot.labelNames, undefined, snapshot.merge)
            : new Histogram(snapshot.name, snapshot.help, snapshot.labelNames, snapshot.buckets ?? []);
        merged.set(snapshot.name, registry.register(metric));
      }
      for (const series of snapshot.series) {
        if (metric instanceof Histogram) metric.absorb(series);
        else if (metric instanceof Counter) metric.inc(series.value ?? 0, ...series.values);
        else if (metric.merge === 'max') metric.set(Math.max(metric.get(...series.values), series.value ?? 0), ...series.values);
        else metric.inc(series.value ?? 0, ...series.values);
      }
    }
  }
  return registry.render();
}

/** The Content-Type of text format 0.0.4. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
