// The fixture's Next.js config. A fixed build id and no source maps: two builds of the same files
// serve the same HTML, so the pages are compared byte for byte once the per-request spans are masked.
// standalone: OpenNext's Cloudflare adapter packs the server from it.
export default {
  output: 'standalone',
  generateBuildId: () => 'rtbench-next-page',
  productionBrowserSourceMaps: false,
  poweredByHeader: false,
  images: { unoptimized: true },
};
