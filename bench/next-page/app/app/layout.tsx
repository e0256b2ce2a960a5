import type { ReactNode } from 'react';

export const metadata = { title: 'rtbench next-page: a product listing' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
