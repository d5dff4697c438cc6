module example.com/pairbench/gosuite

go 1.22
