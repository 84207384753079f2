import { describe, expect, it } from "vitest";
import { API_CALLS } from "~/api/calls/index.server";
import { checkCsv } from "~/models/user-import.server";

const bytes = (text: string) => new TextEncoder().encode(text);
const none = () => false;

describe("checkCsv (docs/product.md §5: first name, last name, phone, email)", () => {
  it("reads rows in the spec's column order, with a header and empty fields left blank", () => {
    const file = checkCsv(
      bytes("First name,Last name,Phone,Email\nAnna,Berg,+45 12 34 56 78,Anna@Example.com\n,,,solo@example.com\n"),
      none,
    );
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
          '=HYPERLINK("x"),B,,b@example.com',
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

  it("reads a first line of titles in any order, by the /api's names or the screen's, in any case", () => {
    const api = checkCsv(
      bytes("email,first_name,last_name,phone\ngrace@example.com,Grace,Hopper,\nada@example.com,Ada,,+44 20 7946 0000\n"),
      none,
    );
    expect(api.problems).toEqual([]);
    expect(api.hasHeader).toBe(true);
    expect(api.rows).toEqual([
      { line: 2, firstName: "Grace", lastName: "Hopper", phone: null, email: "grace@example.com" },
      { line: 3, firstName: "Ada", lastName: "", phone: "+44 20 7946 0000", email: "ada@example.com" },
    ]);
    // Swedish titles as the import screen shows them, shuffled and upper case; the phone is still a phone, not a formula.
    const swedish = checkCsv(bytes("TELEFON;E-post;Efternamn;FÖRNAMN\n+46 70 123 45 67;Anna@Example.se;Berg;Anna\n"), none);
    expect(swedish.problems).toEqual([]);
    expect(swedish.rows).toEqual([{ line: 2, firstName: "Anna", lastName: "Berg", phone: "+46 70 123 45 67", email: "anna@example.se" }]);
    const polish = checkCsv(bytes("Nazwisko,Imię,E-mail,Telefon\nNowak,Maja,maja@example.pl,\n"), none);
    expect(polish.rows).toEqual([{ line: 2, firstName: "Maja", lastName: "Nowak", phone: null, email: "maja@example.pl" }]);
  });

  it("takes the header of the OpenAPI example of POST /api/users/import/{id}", () => {
    const call = API_CALLS.find((c) => c.method === "POST" && c.path === "/api/users/import/{id}")!;
    const file = checkCsv(bytes(String(call.example.body)), none);
    expect(file.problems).toEqual([]);
    expect(file.rows).toEqual([{ line: 2, firstName: "Grace", lastName: "Hopper", phone: null, email: "grace@example.com" }]);
  });

  it("reads titles of the file's own in the spec's order, and without titles keeps the spec's order", () => {
    const own = checkCsv(bytes("Navn,Efternavn,Tlf,Mailadresse\nJens,Hansen,,jens@example.com\n"), none);
    expect(own.problems).toEqual([]);
    expect(own.rows).toEqual([{ line: 2, firstName: "Jens", lastName: "Hansen", phone: null, email: "jens@example.com" }]);
    const bare = checkCsv(bytes("Jens,Hansen,+45 11 22 33 44,jens@example.com\n"), none);
    expect(bare.hasHeader).toBe(false);
    expect(bare.rows).toEqual([{ line: 1, firstName: "Jens", lastName: "Hansen", phone: "+45 11 22 33 44", email: "jens@example.com" }]);
  });

  it("refuses titles it can match only in part, naming the line, instead of reading people from the wrong columns", () => {
    for (const head of ["email,name,surname,phone", "email,email,first_name,last_name", "first_name,last_name,email"]) {
      const file = checkCsv(bytes(`${head}\nx@example.com,A,B,\n`), none);
      expect(file.rows, head).toEqual([]);
      expect(file.problems, head).toEqual([{ line: 1, code: "header", params: { titles: head.split(",").join(", ") } }]);
    }
  });
});
