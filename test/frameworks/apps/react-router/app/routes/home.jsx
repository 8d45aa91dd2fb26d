export default function Home() {
  return <p>HMR-MARK-1</p>
}
