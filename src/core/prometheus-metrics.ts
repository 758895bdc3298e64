import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { MetricSources, Metrics, ReplicationPosition } from "./metrics.ts";

// One Prometheus registry per service, scraped at `GET /metrics` (src/core/metrics.ts says when it
// is made). Counters are counted where things happen; gauges are read when scraped (`watch`), so a
// scrape costs nothing between scrapes.

export class PrometheusMetrics implements Metrics {
  private readonly registry = new Registry();
  readonly contentType: string = this.registry.contentType;

  private readonly requests = new Counter({
    name: "commerce_http_requests_total",
    help: "Requests answered, by route (its declared path, or none) and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [this.registry],
  });

  private readonly latency = new Histogram({
    name: "commerce_http_request_duration_seconds",
    help: "Time to answer a request, by route",
    labelNames: ["route"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  private readonly evictions = new Counter({
    name: "commerce_shop_pool_evictions_total",
    help: "Shop files closed to keep the pool of open files within its size",
    registers: [this.registry],
  });

  private readonly deliveries = new Counter({
    name: "commerce_webhook_deliveries_total",
    help: "Webhook attempts, by kind (endpoint: the merchant's; ucp, acp: a platform's order events) and outcome",
    labelNames: ["kind", "outcome"] as const,
    registers: [this.registry],
  });

  private readonly emails = new Counter({
    name: "commerce_emails_total",
    help: "Email sending attempts, by outcome",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });

  private readonly storage = new Counter({
    name: "commerce_storage_failures_total",
    help: "Storage failures answered 503, by SQLite or file-system code (SQLITE_BUSY: locked past busy_timeout)",
    labelNames: ["code"] as const,
    registers: [this.registry],
  });

  request(method: string, route: string | null, status: number, seconds: number): void {
    const label = route ?? "none";
    this.requests.inc({ method, route: label, status: String(status) });
    this.latency.observe({ route: label }, seconds);
  }

  evicted(): void {
    this.evictions.inc();
  }

  delivered(kind: "endpoint" | "ucp" | "acp", outcome: "succeeded" | "failed"): void {
    this.deliveries.inc({ kind, outcome });
  }

  emailed(outcome: "sent" | "failed"): void {
    this.emails.inc({ outcome });
  }

  storageFailed(code: string): void {
    this.storage.inc({ code });
  }

  /** The gauges, read from the service at each scrape. */
  watch(sources: MetricSources): void {
    new Gauge({
      name: "commerce_shops_open",
      help: "Shop files open in the pool now",
      registers: [this.registry],
      collect() {
        this.set(sources.openShops());
      },
    });
    new Gauge({
      name: "commerce_shops_open_limit",
      help: "The pool's size (TENANT_POOL_SIZE)",
      registers: [this.registry],
      collect() {
        this.set(sources.shopCapacity);
      },
    });
    const due = () => sources.outboxDue();
    new Gauge({
      name: "commerce_outbox_due_shops",
      help: "Shops whose outbox holds work due now (webhooks, emails, provider calls)",
      registers: [this.registry],
      collect() {
        this.set(due().shops);
      },
    });
    new Gauge({
      name: "commerce_outbox_oldest_due_seconds",
      help: "How long the oldest due outbox work has waited (0: none)",
      registers: [this.registry],
      collect() {
        this.set(due().oldestSeconds);
      },
    });
  }

  /**
   * Replication per database, read from Litestream at each scrape (the nodes module's): how many
   * bytes of each shop's WAL are copied aside but not yet in the bucket, how long they have waited,
   * and its failed syncs.
   */
  watchReplication(read: () => Promise<ReplicationPosition[]>): void {
    let last: Promise<ReplicationPosition[]> | null = null;
    // One read of Litestream per scrape, shared by the three gauges.
    const positions = () => {
      last ??= read().finally(() => setTimeout(() => (last = null), 100));
      return last;
    };
    const gauges: [string, string, "behindBytes" | "lagSeconds" | "syncErrors"][] = [
      [
        "commerce_replication_behind_bytes",
        "Bytes of a shop's WAL (or the control plane's, shop=platform) not yet in the replica's bucket",
        "behindBytes",
      ],
      [
        "commerce_replication_lag_seconds",
        "How long a shop's WAL bytes have waited without its replica moving (0: nothing waits)",
        "lagSeconds",
      ],
      [
        "commerce_replication_sync_errors",
        "Litestream's failed syncs of a shop's file since it last started",
        "syncErrors",
      ],
    ];
    for (const [name, help, field] of gauges) {
      new Gauge({
        name,
        help,
        labelNames: ["shop"] as const,
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const p of await positions()) this.set({ shop: p.shop }, p[field]);
        },
      });
    }
  }

  /** The text a scrape answers (Prometheus exposition format). */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
