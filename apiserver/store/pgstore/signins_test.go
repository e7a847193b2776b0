package pgstore

import (
	"context"
	"testing"
	"time"

	"proposaldesk/apiserver/lockout"
)

// Two stores on one database are two replicas: failures counted at one
// lock the user out at the other, and a correct sign-in at either makes
// the address known at both.
func TestSignInCountsAreShared(t *testing.T) {
	a, url := openTest(t)
	b, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	p := lockout.Default
	ca, cb := a.SignInCounter(p), b.SignInCounter(p)
	ctx, now := context.Background(), time.Now()
	k := lockout.KeysOf("Ana@Example.com ", "203.0.113.7")

	for i := range p.Pair.Free + 2 {
		c := ca
		if i%2 == 1 {
			c = cb
		}
		if err := c.Failed(ctx, k, now.Add(time.Duration(i)*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	st, err := cb.Load(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pair.Failures != p.Pair.Free+2 || st.Addr.Failures != p.Pair.Free+2 || st.User.Failures != p.Pair.Free+2 {
		t.Fatalf("counts %+v, want %d in each scope", st, p.Pair.Free+2)
	}
	later := now.Add(time.Second)
	if d := p.Decide(st, later); d.Wait == 0 {
		t.Fatalf("decision %+v after %d failures split over two replicas, want a wait", d, p.Pair.Free+2)
	}

	// Another user behind the same address is not locked out.
	other, _ := ca.Load(ctx, lockout.KeysOf("bo@example.com", "203.0.113.7"))
	if d := p.Decide(other, later); d.Wait != 0 {
		t.Fatalf("another user at the address: %+v", d)
	}

	// A success clears the pair at both, and the address becomes known.
	if err := cb.Succeeded(ctx, k, later); err != nil {
		t.Fatal(err)
	}
	st, _ = ca.Load(ctx, k)
	if st.Pair.Failures != 0 || !p.Known(st.Pair, later) || st.User.Failures != p.Pair.Free+2 {
		t.Fatalf("after success: %+v", st)
	}

	// Forgotten failures start a new run.
	forgotten := later.Add(p.Forget + time.Minute)
	if err := ca.Failed(ctx, k, forgotten); err != nil {
		t.Fatal(err)
	}
	if st, _ := cb.Load(ctx, k); st.User.Failures != 1 || st.Addr.Failures != 1 {
		t.Fatalf("after the forget window: %+v", st)
	}
}

// A trusted device's failures are kept apart from the other scopes, in
// the shared table too, and a correct sign-in clears them.
func TestSignInCountsOfADevice(t *testing.T) {
	s, _ := openTest(t)
	c := s.SignInCounter(lockout.Default)
	ctx, now := context.Background(), time.Now()
	plain := lockout.KeysOf("ana@example.com", "203.0.113.8")
	dev := plain
	dev.Device = "0123456789abcdef"
	for _, k := range []lockout.Keys{plain, dev, dev} {
		if err := c.Failed(ctx, k, now); err != nil {
			t.Fatal(err)
		}
	}
	st, err := c.Load(ctx, dev)
	if err != nil {
		t.Fatal(err)
	}
	if st.Device == nil || st.Device.Failures != 2 || st.Pair.Failures != 1 || st.Addr.Failures != 1 || st.User.Failures != 1 {
		t.Fatalf("state %+v (device %+v)", st, st.Device)
	}
	if st, _ := c.Load(ctx, plain); st.Device != nil {
		t.Fatalf("device counts without a device: %+v", st.Device)
	}
	if err := c.Succeeded(ctx, dev, now); err != nil {
		t.Fatal(err)
	}
	st, err = c.Load(ctx, dev)
	if err != nil || st.Device.Failures != 0 || st.Pair.Failures != 0 || !lockout.Default.Known(st.Pair, now) {
		t.Fatalf("after success %+v (device %+v), %v", st, st.Device, err)
	}
}
