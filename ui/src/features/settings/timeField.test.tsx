import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { readTime, TimeField } from "./TimeField";

function Harness({ seen }: { seen: string[] }) {
  const [value, setValue] = useState("22:00");
  return (
    <TimeField
      label="From"
      value={value}
      testid="time"
      onChange={(v) => {
        seen.push(v);
        setValue(v);
      }}
    />
  );
}

describe("time of day", () => {
  it("reads times the 24-hour way and nothing else", () => {
    expect(readTime("7:30")).toBe("07:30");
    expect(readTime("0730")).toBe("07:30");
    expect(readTime("23.05")).toBe("23:05");
    expect(readTime("19h15")).toBe("19:15");
    for (const bad of ["24:00", "7:3", "07:60", "7:30 PM", "", "noon"]) expect(readTime(bad)).toBeNull();
  });

  it("shows 24-hour times, reports only readable ones, and falls back on blur", async () => {
    const seen: string[] = [];
    render(<Harness seen={seen} />);
    const field = screen.getByRole("textbox", { name: "From" });
    expect(field).toHaveValue("22:00");
    const user = userEvent.setup();
    await user.clear(field);
    await user.type(field, "7:3");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(seen).toEqual([]);
    await user.type(field, "0");
    expect(seen).toEqual(["07:30"]);
    await user.clear(field);
    await user.type(field, "later");
    await user.tab();
    // What could not be read gives way to the last good time.
    expect(field).toHaveValue("07:30");
    expect(field).toHaveAttribute("aria-invalid", "false");
  });
});
