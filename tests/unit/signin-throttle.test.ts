import assert from "node:assert/strict";
import { test } from "node:test";
import { addressGroup, SignInThrottle } from "../../server/auth/throttle";

const clock = () => {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
};

test("addressGroup: IPv4 as is, IPv6 by its /64 (compressed, zoned, mapped forms alike)", () => {
  assert.equal(addressGroup("203.0.113.7"), "203.0.113.7");
  assert.equal(addressGroup("::ffff:203.0.113.7"), "203.0.113.7");
  assert.equal(addressGroup("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  assert.equal(addressGroup("2001:0db8:0001:0002::1"), "2001:db8:1:2::/64");
  assert.equal(addressGroup("2001:db8:1:2::ffff:1.2.3.4"), "2001:db8:1:2::/64");
  assert.equal(addressGroup("fe80::1%eth0"), "fe80:0:0:0::/64");
  assert.equal(addressGroup("2001:db8::1"), "2001:db8:0:0::/64");
  assert.equal(addressGroup("::1"), "0:0:0:0::/64");
  assert.notEqual(addressGroup("2001:db8:1:2::1"), addressGroup("2001:db8:1:3::1"), "another /64 is another address");
  assert.equal(addressGroup("unknown"), "unknown");
});

test("per address and account: a whole IPv6 /64 shares one budget", () => {
  const c = clock();
  const t = new SignInThrottle({ windowMs: 60_000, perAccount: 3, perAddress: 30, now: c.now });
  for (let i = 1; i <= 3; i++) t.fail(`2001:db8:7:7::${i}`, "admin");
  assert.ok(t.retryAfterMs("2001:db8:7:7::99", "admin") > 0, "a fourth host of the same /64 waits");
  assert.equal(t.retryAfterMs("2001:db8:7:8::1", "admin"), 0, "another /64 does not");
});

test("per account over all addresses: past the budget each attempt waits, the wait doubling up to its cap", () => {
  const c = clock();
  const t = new SignInThrottle({ windowMs: 15 * 60_000, perAccount: 5, perAddress: 30, accountBudget: 4, accountDelayMs: 1000, accountMaxDelayMs: 8000, now: c.now });
  for (let i = 0; i < 4; i++) {
    assert.equal(t.retryAfterMs(`10.0.0.${i}`, "Admin"), 0);
    t.fail(`10.0.0.${i}`, "Admin");
  }
  const waits: number[] = [];
  for (let i = 4; i < 9; i++) {
    const w = t.retryAfterMs(`10.0.0.${i}`, "admin");
    waits.push(w);
    c.advance(w);
    assert.equal(t.retryAfterMs(`10.0.0.${i}`, "admin"), 0, "after the delay an attempt is allowed");
    t.fail(`10.0.0.${i}`, "admin");
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 8000]);
  assert.ok(t.retryAfterMs("10.9.9.9", "admin") > 0, "a new address waits too");
  assert.equal(t.retryAfterMs("10.9.9.9", "admin", true), 0, "a known device does not");
  assert.equal(t.retryAfterMs("10.9.9.9", "other"), 0, "another account does not");
  // the right password from a known device: its attempt is taken back, but the guesser keeps its delay
  t.fail("10.9.9.9", "admin");
  t.succeed("10.9.9.9", "admin");
  assert.ok(t.retryAfterMs("10.0.0.50", "admin") > 0);
  // the window passes: the account is free again
  c.advance(15 * 60_000);
  assert.equal(t.retryAfterMs("10.0.0.50", "admin"), 0);
});

test("a known device still obeys the per-address limits", () => {
  const c = clock();
  const t = new SignInThrottle({ windowMs: 60_000, perAccount: 2, perAddress: 30, accountBudget: 1, now: c.now });
  t.fail("10.1.1.1", "admin");
  t.fail("10.1.1.1", "admin");
  assert.ok(t.retryAfterMs("10.1.1.1", "admin", true) > 0);
});
