import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";
import { cleanup, configure } from "@testing-library/react";
import { clearMocks } from "@tauri-apps/api/mocks";

// A view's code loads on first open (a lazy chunk). On a busy machine (`make test` runs
// these beside the Rust build) that took over the default second, and a test that
// waited for the view failed though nothing was wrong; a hang still fails, later.
configure({ asyncUtilTimeout: 5000 });

afterEach(async () => {
  cleanup();
  sessionStorage.clear();
  // Unmounting unsubscribes from events asynchronously; let that finish before the
  // mocked IPC it talks to is torn down.
  await new Promise((resolve) => setTimeout(resolve, 0));
  clearMocks();
});
