/** Any path no route claims: the 404 page of docs/product.md §2, rendered by the root error boundary. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
