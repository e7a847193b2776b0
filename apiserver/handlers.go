package apiserver

import "proposaldesk/app"

var errNotImplemented = app.Errorf(app.KindInternal, "not implemented yet")

func (s *Server) listProposals(c *call) error              { return errNotImplemented }
func (s *Server) createProposal(c *call) error             { return errNotImplemented }
func (s *Server) getProposal(c *call) error                { return errNotImplemented }
func (s *Server) updateProposal(c *call) error             { return errNotImplemented }
func (s *Server) setDescription(c *call) error             { return errNotImplemented }
func (s *Server) setInternalNotes(c *call) error           { return errNotImplemented }
func (s *Server) getChangeOrder(c *call) error             { return errNotImplemented }
func (s *Server) listChangeOrders(c *call) error           { return errNotImplemented }
func (s *Server) createArea(c *call) error                 { return errNotImplemented }
func (s *Server) createOption(c *call) error               { return errNotImplemented }
func (s *Server) setOptionClientDescription(c *call) error { return errNotImplemented }
func (s *Server) setOptionInstallerNotes(c *call) error    { return errNotImplemented }
func (s *Server) assignContact(c *call) error              { return errNotImplemented }
func (s *Server) assignLocation(c *call) error             { return errNotImplemented }
func (s *Server) keyExchange(c *call) error                { return errNotImplemented }
func (s *Server) listPeople(c *call) error                 { return errNotImplemented }
func (s *Server) createPerson(c *call) error               { return errNotImplemented }
func (s *Server) getPerson(c *call) error                  { return errNotImplemented }
func (s *Server) listLocations(c *call) error              { return errNotImplemented }
func (s *Server) createLocation(c *call) error             { return errNotImplemented }
func (s *Server) listUsers(c *call) error                  { return errNotImplemented }
func (s *Server) changes(c *call) error                    { return errNotImplemented }
func (s *Server) changeStatus(c *call) error               { return errNotImplemented }
