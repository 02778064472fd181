// Package defaults holds the one rule by which an option left out of an Options or Config struct
// takes its default.
package defaults

// Positive sets *v to def unless *v is positive: an option's zero value asks for its default, and
// a negative interval, count or rate means nothing else.
func Positive[T ~int | ~int32 | ~int64 | ~uint32 | ~uint64 | ~float64](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
