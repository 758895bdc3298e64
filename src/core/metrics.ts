// What an operator watches (docs/operations.md, "Metrics"), counted only while it can be scraped:
// with METRICS_TOKEN set, a Prometheus registry (prom-client, loaded then and only then); without
// it, nothing is counted or loaded (1.7 MB of resident memory at rest, and the counting on each request).

/** One database's replication position, as the nodes module reads it from Litestream. */
export interface ReplicationPosition {
  /** The shop's organization id, or `platform`. */
  shop: string;
  behindBytes: number;
  syncErrors: number;
  lagSeconds: number;
}

/** What a gauge reads at scrape time; set by the service once it is built. */
export interface MetricSources {
  openShops: () => number;
  shopCapacity: number;
  /** Shops whose outbox has work due, and the age in seconds of the oldest due time (0: none). */
  outboxDue: () => { shops: number; oldestSeconds: number };
}

export interface Metrics {
  /** The scrape's `Content-Type`. */
  readonly contentType: string;
  request(method: string, route: string | null, status: number, seconds: number): void;
  evicted(): void;
  delivered(kind: "endpoint" | "ucp" | "acp", outcome: "succeeded" | "failed"): void;
  emailed(outcome: "sent" | "failed"): void;
  storageFailed(code: string): void;
  /** The gauges, read from the service at each scrape. */
  watch(sources: MetricSources): void;
  /** Replication per database, read from Litestream at each scrape (the nodes module's). */
  watchReplication(read: () => Promise<ReplicationPosition[]>): void;
  /** The text a scrape answers (Prometheus exposition format). */
  scrape(): Promise<string>;
}

const nothing = () => {};

/** Without METRICS_TOKEN nobody can scrape: nothing is counted. */
const NO_METRICS: Metrics = {
  contentType: "text/plain; version=0.0.4; charset=utf-8",
  request: nothing,
  evicted: nothing,
  delivered: nothing,
  emailed: nothing,
  storageFailed: nothing,
  watch: nothing,
  watchReplication: nothing,
  scrape: async () => "",
};

/** The service's metrics: a Prometheus registry when they can be scraped (`enabled`), else none. */
export function createMetrics(enabled: boolean): Metrics {
  if (!enabled) return NO_METRICS;
  // Required here, not imported above: prom-client is loaded only by a service that is scraped.
  const { PrometheusMetrics } = require("./prometheus-metrics.ts") as {
    PrometheusMetrics: new () => Metrics;
  };
  return new PrometheusMetrics();
}
