'use client';
// The page's one client component: a reference the server's Flight payload carries and the HTML hydrates.
import { useState } from 'react';

export function AddToCart({ id }: { id: number }) {
  const [count, setCount] = useState(0);
  return <button type="button" data-product={id} onClick={() => setCount(count + 1)}>add ({count})</button>;
}
