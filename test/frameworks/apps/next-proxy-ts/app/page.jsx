export default function Home() {
  return <main>HMR-MARK-1</main>
}
