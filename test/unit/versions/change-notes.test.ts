import { describe, expect, it } from "vitest";
import { CHANGE_NOTES, changesFileUrl, notesBetween } from "../../../harness/versions/change-notes.ts";
import { compareVersions, httpdVersion } from "../../../harness/versions/httpd-version.ts";

const v = httpdVersion;

describe("upstream's change notes", () => {
  it("are data: 2.4 releases in order, each with https links and its CHANGES file", () => {
    const versions = CHANGE_NOTES.map((note) => v(note.version));
    expect(versions.every((version) => version.family === "2.4")).toBe(true);
    expect(versions.map((x) => x.text)).toEqual([...versions].sort(compareVersions).map((x) => x.text));
    for (const note of CHANGE_NOTES) {
      expect(note.links.length, note.version).toBeGreaterThan(0);
      for (const link of note.links) expect(link.url, note.version).toMatch(/^https:\/\//);
      expect(note.links.map((l) => l.url), note.version).toContain(changesFileUrl(note.version));
    }
  });

  it("know the releases that broke configurations: 2.4.25, 2.4.60, 2.4.64 and 2.4.68", () => {
    const by = (version: string) => CHANGE_NOTES.filter((note) => note.version === version).map((note) => [note.area, note.links.map((l) => l.url)]);
    expect(by("2.4.25")).toEqual([["core", expect.arrayContaining(["https://httpd.apache.org/security/vulnerabilities_24.html#CVE-2016-8743"])]]);
    expect(by("2.4.60")).toEqual([["mod_rewrite", expect.arrayContaining(["https://httpd.apache.org/security/vulnerabilities_24.html#CVE-2024-38474"])]]);
    expect(by("2.4.64")).toEqual([["mod_rewrite", expect.arrayContaining(["https://httpd.apache.org/security/vulnerabilities_24.html#CVE-2025-54090"])]]);
    expect(by("2.4.68")).toEqual([["mod_include", expect.arrayContaining(["https://github.com/apache/httpd/pull/658"])]]);
  });

  it("between two versions: the notes of the releases after the older up to the newer, and the newer's CHANGES file", () => {
    const between = notesBetween(v("2.4.67"), v("2.4.68"));
    expect(between.notes.map((n) => `${n.version} ${n.area}`)).toEqual(["2.4.68 mod_include"]);
    expect(between.changes).toEqual({ title: "CHANGES_2.4.68: every change from 2.4.67 to 2.4.68, newest first", url: "https://archive.apache.org/dist/httpd/CHANGES_2.4.68" });
    expect(notesBetween(v("2.4.59"), v("2.4.66")).notes.map((n) => n.version)).toEqual(["2.4.60", "2.4.64", "2.4.65"]);
    expect(notesBetween(v("2.4.60"), v("2.4.63")).notes).toEqual([]);
  });

  it("whichever order the two come in, and none (no CHANGES file) for one upstream version built twice", () => {
    expect(notesBetween(v("2.4.68"), v("2.4.62"))).toEqual(notesBetween(v("2.4.62"), v("2.4.68")));
    expect(notesBetween(v("2.4.62-1~deb12u1"), v("2.4.62"))).toEqual({ from: "2.4.62", to: "2.4.62", notes: [], changes: null });
  });
});
