echo smoke
