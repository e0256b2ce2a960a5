/** Ratio and q formatting now lives in format.ts; these names stay importable from here for the HTML page. */
export { formatChange, formatQ, formatRatio, formatThreshold, ratioWithCi } from './format.ts';
