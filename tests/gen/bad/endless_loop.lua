-- spins forever
while true do
end
