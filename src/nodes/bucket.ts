import type { Config } from "../config.ts";

// The bucket the nodes share (REPLICA_*): Litestream's replicas and the directory's leases.

/** Where the replica is and how to reach it (`REPLICA_*`, src/config.ts). */
export type ReplicaConfig = NonNullable<Config["replica"]>;

/** The bucket and the prefix (no slash at either end) of `s3://bucket/prefix`. */
export function bucketOf(url: string): { bucket: string; prefix: string } {
  const parsed = new URL(url);
  return { bucket: parsed.hostname, prefix: parsed.pathname.replace(/^\/+|\/+$/g, "") };
}

/** A client of the bucket `url` (`s3://bucket/prefix`) names, with the replica's address and credentials; and the prefix. */
export function bucketClient(replica: ReplicaConfig, url: string) {
  const { bucket, prefix } = bucketOf(url);
  const client = new Bun.S3Client({
    bucket,
    region: replica.region,
    ...(replica.endpoint ? { endpoint: replica.endpoint } : {}),
    ...(replica.accessKeyId ? { accessKeyId: replica.accessKeyId } : {}),
    ...(replica.secretAccessKey ? { secretAccessKey: replica.secretAccessKey } : {}),
  });
  return { client, prefix };
}
