// Package connlimit caps the server's connections, in total and per
// client address, so that idle keep-alive connections cannot use up the
// process's file descriptors. When a cap is reached the longest-idle
// connection (of that address, or of all) is closed to make room, so a
// new client is still served; only when every connection is busy with a
// request is the new one refused.
//
// Use Limiter as the http.Server's listener and its ConnState method as
// the server's ConnState hook: the hook tells which connections are idle.
package connlimit

import (
	"container/list"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits are the caps. Zero fields take the defaults of DefaultLimits.
type Limits struct {
	// Total caps open connections.
	Total int
	// PerAddr caps open connections from one client IP address.
	PerAddr int
}

// fdReserve is kept for what else the server opens: the database, its
// log, the admin socket, the listener itself, TLS files.
const fdReserve = 64

// maxDefaultTotal bounds the derived total: past about ten thousand,
// memory (a goroutine and buffers per connection) matters more than
// descriptors.
const maxDefaultTotal = 10_000

// DefaultLimits derives the caps from the file-descriptor limit: the
// total leaves a reserve for the server's own files (a quarter of a small
// limit) and stays between 16 and 10,000; one address may hold a quarter
// of it (an office behind one NAT fits; one client cannot crowd out the
// rest).
func DefaultLimits(nofile uint64) Limits {
	n := int(min(nofile, 1<<30))
	total := n - fdReserve
	if n <= 4*fdReserve {
		total = n * 3 / 4
	}
	total = min(max(total, 16), maxDefaultTotal)
	return Limits{Total: total, PerAddr: max(total/4, 8)}
}

// Limiter is a net.Listener that admits connections within Limits.
type Limiter struct {
	net.Listener
	lim Limits
	log *slog.Logger

	mu      sync.Mutex
	conns   map[net.Conn]*entry
	addrs   map[string]*addrConns
	idle    list.List // of *entry, longest idle first
	evicted int64
	refused int64
	warned  time.Time
}

type entry struct {
	conn  net.Conn
	addr  string
	gIdle *list.Element // in Limiter.idle, nil when busy
	aIdle *list.Element // in addrConns.idle, nil when busy
}

type addrConns struct {
	open int
	idle list.List
}

// New wraps ln. A nil logger discards.
func New(ln net.Listener, lim Limits, log *slog.Logger) *Limiter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Limiter{Listener: ln, lim: lim, log: log, conns: map[net.Conn]*entry{}, addrs: map[string]*addrConns{}}
}

// Accept returns the next admitted connection; refused ones are closed
// at once.
func (l *Limiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		victims, ok := l.admit(c)
		for _, v := range victims {
			// A TLS close may wait for the peer; never in the accept loop.
			go v.Close()
		}
		if ok {
			return c, nil
		}
		c.Close()
	}
}

// admit registers c (as idle: it has sent no request yet), closing the
// longest-idle connections of its address or of all as the caps need.
func (l *Limiter) admit(c net.Conn) (victims []net.Conn, ok bool) {
	addr := hostOf(c.RemoteAddr())
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.addrs[addr]
	if a == nil {
		a = &addrConns{}
		l.addrs[addr] = a
	}
	if a.open >= l.lim.PerAddr {
		v := a.idle.Front()
		if v == nil {
			l.refuse(addr)
			l.dropAddrIfEmpty(addr, a)
			return nil, false
		}
		victims = append(victims, l.evict(v.Value.(*entry)))
	}
	if len(l.conns) >= l.lim.Total {
		v := l.idle.Front()
		if v == nil {
			l.refuse(addr)
			l.dropAddrIfEmpty(addr, a)
			return victims, false
		}
		victims = append(victims, l.evict(v.Value.(*entry)))
	}
	e := &entry{conn: c, addr: addr}
	l.conns[c] = e
	a.open++
	l.setIdle(e, a)
	return victims, true
}

// ConnState is the http.Server hook that keeps the idle lists.
func (l *Limiter) ConnState(c net.Conn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.conns[c]
	if e == nil {
		return // evicted already, or not ours
	}
	a := l.addrs[e.addr]
	switch s {
	case http.StateActive:
		l.setBusy(e, a)
	case http.StateIdle:
		l.setBusy(e, a)
		l.setIdle(e, a)
	case http.StateClosed, http.StateHijacked:
		l.remove(e, a)
	}
}

// Open reports the connections held in total and from addr, for tests.
func (l *Limiter) Open(addr string) (total, fromAddr int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.addrs[addr]; a != nil {
		fromAddr = a.open
	}
	return len(l.conns), fromAddr
}

// Stats are the connections closed to make room and refused.
func (l *Limiter) Stats() (evicted, refused int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.evicted, l.refused
}

func (l *Limiter) setIdle(e *entry, a *addrConns) {
	e.gIdle = l.idle.PushBack(e)
	e.aIdle = a.idle.PushBack(e)
}

func (l *Limiter) setBusy(e *entry, a *addrConns) {
	if e.gIdle != nil {
		l.idle.Remove(e.gIdle)
		a.idle.Remove(e.aIdle)
		e.gIdle, e.aIdle = nil, nil
	}
}

func (l *Limiter) remove(e *entry, a *addrConns) {
	l.setBusy(e, a)
	delete(l.conns, e.conn)
	a.open--
	l.dropAddrIfEmpty(e.addr, a)
}

func (l *Limiter) dropAddrIfEmpty(addr string, a *addrConns) {
	if a.open == 0 {
		delete(l.addrs, addr)
	}
}

// evict forgets e; the caller closes its connection.
func (l *Limiter) evict(e *entry) net.Conn {
	l.remove(e, l.addrs[e.addr])
	l.evicted++
	return e.conn
}

// refuse counts a refused connection and warns at most once a minute.
func (l *Limiter) refuse(addr string) {
	l.refused++
	if now := time.Now(); now.Sub(l.warned) >= time.Minute {
		l.warned = now
		l.log.Warn("connection cap reached with every connection busy; refusing new connections",
			"addr", addr, "open", len(l.conns), "max_conns", l.lim.Total, "max_conns_per_addr", l.lim.PerAddr,
			"refused_total", l.refused)
	}
}

func hostOf(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}
