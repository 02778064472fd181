package main

import (
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/zapr"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	ctrlzap "sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// Bounds of the log's buffer: a request never waits for a write to stderr unless 256 KiB are
// waiting already, and a crash loses at most the last 200 ms of lines.
const (
	logBufferBytes   = 256 << 10
	logFlushInterval = 200 * time.Millisecond
)

// logOutput is the manager's log output once the flags are parsed; main flushes it at exit.
var logOutput *zapcore.BufferedWriteSyncer

// newLogOutput is where every log line goes: stderr through a buffer flushed every
// logFlushInterval, and at exit (Stop). Writing each access log line straight to stderr cost the
// API about a fifth of its throughput.
func newLogOutput(w zapcore.WriteSyncer) *zapcore.BufferedWriteSyncer {
	return &zapcore.BufferedWriteSyncer{WS: zapcore.Lock(w), Size: logBufferBytes, FlushInterval: logFlushInterval}
}

// newAccessLogger writes the access log, one JSON line per request as the rest of the log is
// written (controller-runtime's production encoder and --zap-time-encoding), but never sampled:
// controller-runtime's logger keeps only the first 100 lines a second of one message, and an
// access log that drops requests under load is no record. --zap-log-level above info silences it.
func newAccessLogger(opts *ctrlzap.Options, out zapcore.WriteSyncer) logr.Logger {
	cfg := zap.NewProductionEncoderConfig()
	cfg.EncodeTime = zapcore.RFC3339TimeEncoder
	if opts.TimeEncoder != nil {
		cfg.EncodeTime = opts.TimeEncoder
	}
	var level zapcore.LevelEnabler = zapcore.InfoLevel
	if opts.Level != nil {
		level = opts.Level
	}
	core := zapcore.NewCore(zapcore.NewJSONEncoder(cfg), out, level)
	return zapr.NewLogger(zap.New(core)).WithName("api")
}
