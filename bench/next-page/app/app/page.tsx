import { Suspense } from 'react';
import { AddToCart } from './add-to-cart';
import { buildCatalog, loadReviews, type Product } from './catalog';

// Rendered for every request: the server components run and the HTML streams on each one.
export const dynamic = 'force-dynamic';

const PRODUCTS = 860;

function price(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

function Row({ product }: { product: Product }) {
  return (
    <li className="product" id={`p${product.id}`}>
      <h2>{product.name}</h2>
      <p className="meta">
        <span>{product.category}</span> · <span>{price(product.priceCents)}</span> · <span>{product.rating.toFixed(1)} stars</span>
      </p>
      <p>{product.blurb}</p>
      <ul className="tags">{product.tags.map((tag, i) => <li key={i}>{tag}</li>)}</ul>
      {product.id % 10 === 0 ? <AddToCart id={product.id} /> : null}
    </li>
  );
}

async function Reviews({ ids }: { ids: number[] }) {
  const reviews = await loadReviews(ids);
  return (
    <ol className="reviews">
      {reviews.map((r) => <li key={r.productId}>{'★'.repeat(r.stars)} {r.text}</li>)}
    </ol>
  );
}

export default async function Page() {
  const products = buildCatalog(PRODUCTS, 79);
  const total = products.reduce((sum, p) => sum + p.priceCents, 0);
  return (
    <main>
      <h1>{products.length} products, {price(total)} in all</h1>
      <ul className="products">{products.map((p) => <Row key={p.id} product={p} />)}</ul>
      <Suspense fallback={<p>loading reviews…</p>}>
        <Reviews ids={products.filter((p) => p.rating > 2.5).map((p) => p.id)} />
      </Suspense>
    </main>
  );
}
