"use client";
import { useLayoutEffect } from "react";

/** Dark when the person chose it (ThemeToggle stores it), else when the system prefers it. */
function wantsDark(system: boolean): boolean {
  try {
    const chosen = localStorage.getItem("theme");
    if (chosen === "dark" || chosen === "light") return chosen === "dark";
  } catch {
    // storage disabled (private mode): the system decides
  }
  return system;
}

/**
 * The layout's inline theme script runs only when the server sends the page whole. A 401, 403 or
 * 404 answer from a page (unauthorized(), forbidden(), notFound()) arrives as an empty shell that
 * React renders in the browser, where an inline script never runs; this applies the same choice
 * before that first paint. It also follows the system setting while no choice is stored.
 */
export function ThemeSync() {
  useLayoutEffect(() => {
    const media = matchMedia("(prefers-color-scheme: dark)");
    const apply = () => document.documentElement.classList.toggle("dark", wantsDark(media.matches));
    apply();
    media.addEventListener("change", apply);
    return () => media.removeEventListener("change", apply);
  }, []);
  return null;
}
