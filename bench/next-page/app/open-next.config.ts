// OpenNext's Cloudflare adapter with its defaults: no incremental cache, queue or tag cache, so the
// Worker needs no binding beyond its static assets, which a force-dynamic page never reads.
import { defineCloudflareConfig } from '@opennextjs/cloudflare';

export default defineCloudflareConfig();
