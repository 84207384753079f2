/** Turning posted form fields into the typed values the /api schemas take (one schema for both). */
export function text(formData: FormData, name: string) {
  const value = formData.get(name);
  return typeof value === "string" ? value : undefined;
}

export function checkbox(formData: FormData, name: string) {
  return formData.get(name) === "on" || formData.get(name) === "true";
}

/** A number field: "" means none (null); anything else is passed on for the schema to judge. */
export function optionalNumber(formData: FormData, name: string): number | null | string {
  const value = text(formData, name)?.trim() ?? "";
  if (value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

export function optionalText(formData: FormData, name: string) {
  const value = text(formData, name)?.trim() ?? "";
  return value === "" ? null : value;
}

/** "move:up" style intents from MoveButtons. */
export function moveIntent(formData: FormData, prefix = "move") {
  const intent = text(formData, "intent") ?? "";
  const [name, direction] = intent.split(":");
  if (name !== prefix || (direction !== "up" && direction !== "down")) return null;
  const id = Number(text(formData, "id"));
  return Number.isSafeInteger(id) && id > 0 ? { id, direction: direction as "up" | "down" } : null;
}
