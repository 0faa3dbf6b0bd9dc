package components

// Ring keeps the last values pushed, up to a fixed capacity, oldest first:
// the storage of LogView and of the access log's records.
type Ring[T any] struct {
	buf   []T
	start int // index of the oldest value in buf
	n     int // values held
}

// NewRing returns an empty ring that holds up to capacity (> 0) values.
func NewRing[T any](capacity int) Ring[T] { return Ring[T]{buf: make([]T, capacity)} }

// Cap is how many values the ring holds at the most.
func (r Ring[T]) Cap() int { return len(r.buf) }

// Len is how many values the ring holds.
func (r Ring[T]) Len() int { return r.n }

// At returns held value i (0 = oldest).
func (r Ring[T]) At(i int) T { return r.buf[(r.start+i)%len(r.buf)] }

// Push appends v; when the ring is full the oldest value goes, and Push
// reports it.
func (r *Ring[T]) Push(v T) (evicted bool) {
	c := len(r.buf)
	if r.n < c {
		r.buf[(r.start+r.n)%c] = v
		r.n++
		return false
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % c
	return true
}

// Clear drops every value, keeping the capacity.
func (r *Ring[T]) Clear() {
	clear(r.buf)
	r.start, r.n = 0, 0
}
