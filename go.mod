module proposaldesk

go 1.26
