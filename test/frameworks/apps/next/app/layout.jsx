export const metadata = { title: 'cors-dev-proxy with Next' }

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <head>
        {process.env.NODE_ENV === 'development' && (
          <script type="module" src="/__cors-dev-proxy/client.js" async />
        )}
      </head>
      <body>{children}</body>
    </html>
  )
}
