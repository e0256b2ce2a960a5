// A Workers module that computes its page on every request, as a public
// benchmark Worker does: primes, Fibonacci numbers and 1,000 items, about
// 2 MB of HTML. Nothing in it changes between requests or runtimes.
function primes(limit) {
  const sieve = new Uint8Array(limit + 1);
  const out = [];
  for (let i = 2; i <= limit; i++) {
    if (sieve[i]) continue;
    out.push(i);
    for (let j = i * i; j <= limit; j += i) sieve[j] = 1;
  }
  return out;
}

function fibonacci(n) {
  const out = [0n, 1n];
  for (let i = 2; i < n; i++) out.push(out[i - 1] + out[i - 2]);
  return out;
}

function item(i) {
  const tags = Array.from({ length: 8 }, (_, k) => `<span class="tag t${(i * 7 + k) % 13}">tag ${(i * 31 + k * 17) % 1000}</span>`).join('');
  const text = `Item ${i}: ${'lorem ipsum dolor sit amet '.repeat(40 + (i % 10))}`;
  return `<article id="item-${i}"><h2>${text.slice(0, 40)}</h2><p>${text}</p><div>${tags}</div><footer>${(i * 2654435761) % 1000003}</footer></article>`;
}

export default {
  fetch() {
    const p = primes(200_000);
    const f = fibonacci(600);
    const parts = ['<!doctype html><html><head><title>computed</title></head><body>'];
    parts.push(`<section id="primes"><h1>${p.length} primes</h1><p>${p.join(' ')}</p></section>`);
    parts.push(`<section id="fibonacci"><ol>${f.map((x) => `<li>${x}</li>`).join('')}</ol></section>`);
    parts.push('<section id="items">');
    for (let i = 0; i < 1000; i++) parts.push(item(i));
    parts.push('</section></body></html>');
    return new Response(parts.join(''), { headers: { 'content-type': 'text/html; charset=utf-8' } });
  },
};
