// Code highlighting, loaded the first time a reply shows code: its grammars are most
// of the page's script, and an idle window with no code on screen should not carry them.
import { useEffect, useState } from "react";
import type { Options } from "react-markdown";

type PluggableList = NonNullable<Options["rehypePlugins"]>;

let loaded: PluggableList | null = null;
let loading: Promise<PluggableList> | null = null;

function load(): Promise<PluggableList> {
  loading ??= import("rehype-highlight").then((m) => {
    loaded = [[m.default, { detect: false }]];
    return loaded;
  });
  return loading;
}

/** The rehype plugins for replies: none until code appears, then the highlighter. */
export function useHighlighting(codeShown: boolean): PluggableList {
  const [plugins, setPlugins] = useState<PluggableList>(loaded ?? []);
  useEffect(() => {
    if (!codeShown || plugins.length > 0) return;
    let current = true;
    load().then((p) => current && setPlugins(p));
    return () => {
      current = false;
    };
  }, [codeShown, plugins.length]);
  return plugins;
}
