"use client";
import { Component, type ReactNode } from "react";

/**
 * Keeps a part fetched on demand (a lazy chunk) that fails to load or to start inside its own box:
 * `fallback` shows there instead, and the rest of the page goes on working.
 */
export class LoadBoundary extends Component<{ children: ReactNode; what: string; fallback(error: Error): ReactNode }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }
  componentDidCatch(error: unknown) {
    console.error(`[tool-studio] ${this.props.what} failed to load`, error);
  }
  render() {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}
