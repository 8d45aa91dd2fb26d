// The custom-server app's layout (with the overlay's script tag), shared.
export { default, metadata } from '../../next/app/layout.jsx'
