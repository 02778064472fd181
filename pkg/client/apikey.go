package client

import (
	"context"
	"net/http"
)

// APIKeyHeader is the request header that carries the API key.
const APIKeyHeader = "api-key"

// WithAPIKey sends key in the api-key header of every request.
func WithAPIKey(key string) ClientOption {
	return WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
		req.Header.Set(APIKeyHeader, key)
		return nil
	})
}
