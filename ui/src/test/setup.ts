import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";
import { cleanup } from "@testing-library/react";
import { clearMocks } from "@tauri-apps/api/mocks";

afterEach(async () => {
  cleanup();
  sessionStorage.clear();
  // Unmounting unsubscribes from events asynchronously; let that finish before the
  // mocked IPC it talks to is torn down.
  await new Promise((resolve) => setTimeout(resolve, 0));
  clearMocks();
});
