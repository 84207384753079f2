import { createContext, useContext, type ReactNode } from "react";
import { DEFAULT_NAMESPACE as NAMESPACE, FALLBACK_LANGUAGE as FALLBACK } from "./i18n";

/**
 * The interface's translator, on the server's render and in the browser alike (docs/decisions/005): the
 * part of i18next the app uses, answering exactly as i18next 23 answers with the app's settings (one
 * namespace `common`, fallback `en`, `escapeValue: false`), without shipping i18next (15 KiB gzipped) and
 * react-i18next to the browser. Server code outside the render (mail, /api errors) still uses i18next.
 *
 * What it does, as i18next does: dotted keys; an array of keys (the first found; the last when none is);
 * `ns:key` read as a namespace other than `common` (so `capabilities.read:course` reads as the key
 * `course` of a namespace that does not exist); plurals by `count` with Intl.PluralRules suffixes
 * (`_zero` for 0 when present, then `_one`/`_few`/`_many`/`_other`, then the bare key, in the language and
 * then in the fallback); `defaultValue` (and `defaultValue_<form>`, or a string as second argument);
 * `{{name}}` and `{{- name}}` filled from the options (nested `{{a.b}}` too), with no HTML escaping; a
 * placeholder without a value stays as written unless the option is given as undefined (then empty); a
 * missing key answers the key itself (interpolated); an object where a text was expected answers
 * i18next's warning sentence. Not implemented because no text uses them: formats (`{{x, number}}`),
 * nesting (`$t(...)`), context, ordinals, returnObjects.
 */

type Texts = Record<string, unknown>;
export type TranslateOptions = Record<string, unknown>;
export type Translate = (key: string | readonly string[], options?: TranslateOptions | string) => string;
export interface Translator {
  t: Translate;
  i18n: { language: string };
}

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
const notDeeper = (node: unknown) => !node || typeof node === "string";

/** i18next's getPath: own properties down the path, the last step read as it is. */
function getPath(node: unknown, path: string[]): unknown {
  for (let i = 0; i < path.length - 1; i++) {
    if (notDeeper(node)) return undefined;
    node = has(node as Texts, path[i]) ? (node as Texts)[path[i]] : {};
  }
  return notDeeper(node) ? undefined : (node as Texts)[path[path.length - 1]];
}

/** i18next's deepFind: like getPath, but a key may itself contain dots (`{"a.b": …}`). */
function deepFind(node: unknown, path: string): unknown {
  if (!node) return undefined;
  if ((node as Texts)[path]) return (node as Texts)[path];
  const tokens = path.split(".");
  let current: unknown = node;
  for (let i = 0; i < tokens.length; ) {
    if (!current || typeof current !== "object") return undefined;
    let next: unknown;
    let nextPath = "";
    for (let j = i; j < tokens.length; ++j) {
      if (j !== i) nextPath += ".";
      nextPath += tokens[j];
      next = (current as Texts)[nextPath];
      if (next !== undefined) {
        if (["string", "number", "boolean"].includes(typeof next) && j < tokens.length - 1) continue;
        i += j - i + 1;
        break;
      }
    }
    current = next;
  }
  return current;
}

const lookUp = (node: unknown, key: string) => getPath(node, key.split(".")) || deepFind(node, key);

/** i18next's reading of `ns:key` (a key that reads as a sentence keeps its colon). */
function splitNamespace(key: string): [string, string] {
  if (!key.includes(":")) return [NAMESPACE, key];
  const natural = /[ ,?!;]/;
  const dot = key.indexOf(".");
  const looksLikePath = !natural.test(key) || (dot > 0 && !natural.test(key.slice(0, dot)));
  if (!looksLikePath || /\$t\((.+?)\)/.test(key)) return [NAMESPACE, key];
  const parts = key.split(":");
  const ns = parts.shift()!;
  return [ns, parts.join(".")];
}

const valid = (value: unknown) => value !== undefined && value !== null;

/** Fills `{{- name}}`, then `{{name}}`, as i18next does with `escapeValue: false` and `skipOnVariables`. */
function interpolate(text: string, data: TranslateOptions, options: TranslateOptions) {
  for (const pattern of [/{{-(.+?)}}/g, /{{(.+?)}}/g]) {
    let match: RegExpExecArray | null;
    let replaces = 0;
    while ((match = pattern.exec(text))) {
      const name = match[1].trim();
      let value = getPath(data, name.split(".")) || deepFind(data, name);
      if (value === undefined) {
        if (!has(options, name)) continue;
        value = "";
      } else if (typeof value !== "string") {
        value = value == null ? "" : "" + (value as string);
      }
      const filled = value as string;
      text = text.replace(match[0], () => filled);
      pattern.lastIndex += filled.length - match[0].length;
      if (++replaces >= 1000) break;
    }
  }
  return text;
}

/**
 * A translator for `language`, reading `resources[language].common` and then `resources.en.common`.
 * The browser has only its language's texts (the texts script); the server has every language's.
 */
export function createTranslator(language: string, resources: Record<string, { common: Texts } | undefined>): Translator {
  const codes = language === FALLBACK ? [language] : [language, FALLBACK];
  const rules = new Map<string, Intl.PluralRules>();
  const suffix = (code: string, count: unknown) => {
    let rule = rules.get(code);
    if (!rule) rules.set(code, (rule = new Intl.PluralRules(code)));
    return `_${rule.select(count as number)}`;
  };

  const t: Translate = (keys, given) => {
    const options: TranslateOptions =
      typeof given === "object" && given !== null ? { ...given } : typeof given === "string" ? { defaultValue: given } : {};
    // What react-i18next's fixed t adds to every call (they are values `{{…}}` could read).
    options.lng = options.lng || undefined;
    options.lngs = options.lngs || null;
    options.ns = options.ns || NAMESPACE;
    options.keyPrefix = options.keyPrefix || undefined;
    if (keys === undefined || keys === null) return "";
    const list = Array.isArray(keys) ? (keys as readonly string[]) : [String(keys)];
    const count = options.count;
    const plural = count !== undefined && typeof count !== "string";
    const zero = plural && count === 0;

    let found: unknown;
    for (const k of list) {
      if (valid(found)) break;
      const [ns, key] = splitNamespace(k);
      for (const code of codes) {
        if (valid(found)) break;
        const tries = [key];
        if (plural) tries.push(key + suffix(code, count));
        if (zero) tries.push(`${key}_zero`);
        const texts = resources[code]?.[ns as "common"];
        let tried: string | undefined;
        while ((tried = tries.pop())) if (!valid(found)) found = lookUp(texts, tried);
      }
    }

    const key = splitNamespace(list[list.length - 1])[1];
    if (found && typeof found === "object") {
      return `key '${key} (${language})' returned an object instead of string.`;
    }
    let text = found;
    if (!valid(text)) {
      const form = plural ? suffix(language, count) : "";
      const hasDefault = Object.keys(options).some((o) => o.startsWith("defaultValue") && options[o] !== undefined);
      if (hasDefault) text = (zero && options.defaultValue_zero) || options[`defaultValue${form}`] || options.defaultValue;
      if (!valid(text)) text = key;
    }
    if (typeof text !== "string") return text as string;
    const data = options.replace && typeof options.replace !== "string" ? (options.replace as TranslateOptions) : options;
    return interpolate(text, data, options);
  };

  return { t, i18n: { language } };
}

const TranslatorContext = createContext<Translator>(createTranslator(FALLBACK, {}));

export function TranslatorProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator}>{children}</TranslatorContext.Provider>;
}

/** `{ t, i18n: { language } }`, as react-i18next's hook gave them. */
export function useTranslation(): Translator {
  return useContext(TranslatorContext);
}
