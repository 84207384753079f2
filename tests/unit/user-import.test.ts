import { describe, expect, it } from "vitest";
import { checkCsv } from "~/models/user-import.server";

const bytes = (text: string) => new TextEncoder().encode(text);
const none = () => false;

describe("checkCsv (spec §5: first name, last name, phone, email)", () => {
  it("reads rows in the spec's column order, with a header and empty fields left blank", () => {
    const file = checkCsv(bytes("First name,Last name,Phone,Email\nAnna,Berg,+45 12 34 56 78,Anna@Example.com\n,,,solo@example.com\n"), none);
    expect(file.problems).toEqual([]);
    expect(file.hasHeader).toBe(true);
    expect(file.rows).toEqual([
      { line: 2, firstName: "Anna", lastName: "Berg", phone: "+45 12 34 56 78", email: "anna@example.com" },
      { line: 3, firstName: "", lastName: "", phone: null, email: "solo@example.com" },
    ]);
  });

  it("takes semicolons (spreadsheets in Danish or Polish) and quoted commas", () => {
    const file = checkCsv(bytes('Jens;"Hansen, jr.";;jens@example.com\n'), none);
    expect(file.rows[0]).toMatchObject({ lastName: "Hansen, jr.", email: "jens@example.com" });
  });

  it("names every problem by its line", () => {
    const file = checkCsv(
      bytes(
        [
          "A,B,,a@example.com",
          "=HYPERLINK(\"x\"),B,,b@example.com",
          "<b>C</b>,D,,c@example.com",
          "E,F,,not-an-address",
          "G,H,,a@example.com",
          "I,J,k@example.com",
          "K,L,,taken@example.com",
        ].join("\n"),
      ),
      (email) => email === "taken@example.com",
    );
    expect(file.problems.map((p) => [p.line, p.code])).toEqual([
      [2, "formula"],
      [3, "html"],
      [4, "email"],
      [5, "duplicateInFile"],
      [6, "columns"],
      [7, "exists"],
    ]);
  });

  it("refuses a file that is not CSV", () => {
    expect(checkCsv(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 1]), none).problems[0].code).toBe("notCsv");
    expect(checkCsv(bytes('a,"b,c,d@example.com\n'), none).problems[0].code).toBe("notCsv");
    expect(checkCsv(bytes(""), none).problems[0].code).toBe("empty");
  });
});
