package syncer

import "context"

// SignIn exchanges email and password for an API key on baseURL (the
// connection's), presenting the device token keys hold for this server
// and user, and keeps the fresh one the server hands out. Credentials
// are the caller's to save, with the app secret it signed with.
func (c *Client) SignIn(ctx context.Context, keys *Keyring, baseURL, email, password string) (ExchangeResult, error) {
	res, err := c.ExchangeDevice(ctx, email, password, keys.DeviceToken(baseURL, email))
	if err != nil {
		return ExchangeResult{}, err
	}
	keys.SaveDeviceToken(baseURL, email, res.DeviceToken)
	return res, nil
}
